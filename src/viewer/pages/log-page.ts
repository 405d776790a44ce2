import { z } from 'zod';
import { eventTable } from '../event-line.js';
import { html } from '../html.js';
import { clip, layout } from '../layout.js';
import { href, type ViewContext } from '../view-context.js';
import { newestEvents, type ViewerSource } from '../viewer-source.js';

/** Events on one page of the log. */
export const EVENTS_PER_PAGE = 200;

export const logQuery = z.object({
  session: z.string().max(200).optional(),
  project: z.string().max(4096).optional(),
  /** Show events before this seq: the next page. */
  before: z.coerce.number().int().min(1).optional(),
});
export type LogQuery = z.infer<typeof logQuery>;

/**
 * The log newest first, a page at a time: one session's prompts, tool calls (failures marked),
 * compactions and distillations, or one project's, or everything. Each page reads a bounded
 * stretch of the log backwards from `before`.
 */
export async function logPage(source: ViewerSource, ctx: ViewContext, query: LogQuery): Promise<string> {
  const keep = (e: { session: string; project: string }) =>
    (query.session === undefined || e.session === query.session) && (query.project === undefined || query.project === '' || e.project === query.project);
  const page = await newestEvents(source, query.before ?? source.head + 1, EVENTS_PER_PAGE, keep);
  const title = query.session ? `Session ${query.session}` : query.project ? `Events: ${clip(query.project, 60)}` : 'Events';
  const body = html`${eventTable(ctx, page.events)}
<div class="pager">${page.next !== undefined ? html`<a id="older" href="${href(ctx, '/log', { session: query.session, project: query.project, before: page.next })}">older →</a>` : html`<span class="muted">start of the log</span>`}</div>`;
  return layout(ctx, title, 'timeline', body);
}
