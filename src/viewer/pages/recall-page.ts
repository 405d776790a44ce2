import { z } from 'zod';
import type { StoredEnvelope } from '../../events/envelope.js';
import { html, type Html } from '../html.js';
import { clip, layout } from '../layout.js';
import { href, type ViewContext } from '../view-context.js';
import { eventsBetween, newestEvents, type ViewerSource } from '../viewer-source.js';
import { committedRow, memoryKey } from '../../projections/memories/memories-rows.js';

/** Recalls on one page. */
export const RECALLS_PER_PAGE = 30;
/** How far before its MemoriesRecalled the prompt that caused it is looked for. */
const PROMPT_WINDOW = 64;

export const recallQuery = z.object({
  before: z.coerce.number().int().min(1).optional(),
  session: z.string().max(200).optional(),
});
export type RecallQuery = z.infer<typeof recallQuery>;

interface Recalled {
  memoryIds?: string[];
  via?: string;
  signals?: string[][];
  leftOut?: Array<{ id: string; score: number; signals: string[]; why: string }>;
}

/**
 * For each prompt that recalled something, newest first: the prompt, what was injected and why
 * (the signals that fired), and what the cut left out and why (recorded since the viewer; older
 * recalls say they did not record it).
 */
export async function recallPage(source: ViewerSource, ctx: ViewContext, query: RecallQuery): Promise<string> {
  const page = await newestEvents(source, query.before ?? source.head + 1, RECALLS_PER_PAGE, (e) => e.type === 'MemoriesRecalled' && (query.session === undefined || e.session === query.session));
  const memories = source.rows('memories');
  const name = async (id: string): Promise<Html> => {
    const row = await committedRow(memories, memoryKey(id));
    return row ? html`<a href="${href(ctx, '/memory', { id })}">${clip(row.name, 80)}</a>` : html`<span class="muted">${id} (not in the memories as of this point)</span>`;
  };
  const traces: Html[] = [];
  for (const event of page.events) {
    const data = event.data as Recalled;
    const prompt = await promptOf(source, event);
    const injected = await Promise.all((data.memoryIds ?? []).map(async (id, i) => html`<li>${await name(id)} <span class="tag">${(data.signals?.[i] ?? ['not recorded']).join('+')}</span></li>`));
    const leftOut = data.leftOut === undefined
      ? html`<p class="muted">What the cut left out was not recorded for this recall.</p>`
      : data.leftOut.length === 0
        ? html`<p class="muted">Nothing else was a candidate.</p>`
        : html`<ul class="left-out">${await Promise.all(data.leftOut.map(async (item) => html`<li>${await name(item.id)} <span class="tag">${item.signals.join('+')}</span> score ${item.score.toFixed(3)}: ${WHY[item.why] ?? item.why}</li>`))}</ul>`;
    traces.push(html`<div class="trace"><h3><a href="${href(ctx, '/event', { seq: event.seq })}">#${event.seq}</a> ${event.ts.slice(0, 19).replace('T', ' ')} · <a class="session" href="${href(ctx, '/log', { session: event.session, before: event.seq + 1 })}">${event.session.slice(0, 12)}</a> · via ${data.via ?? '?'}</h3>
<p>${prompt ? html`prompt: “${clip(prompt, 300)}”` : html`<span class="muted">prompt not found near this recall</span>`}</p>
<b>Injected</b><ul class="injected">${injected}</ul><b>Left out</b>${leftOut}</div>`);
  }
  const body = html`${traces.length === 0 ? html`<p class="muted">No prompt has recalled anything yet.</p>` : html`<div id="recalls">${traces}</div>`}
${page.next !== undefined && traces.length > 0 ? html`<div class="pager"><a href="${href(ctx, '/recall', { session: query.session, before: page.next })}">older →</a></div>` : ''}`;
  return layout(ctx, 'Recall traces', 'recall', body);
}

const WHY: Record<string, string> = {
  'below-cut': 'scored under half the best',
  'past-limit': 'past the top few',
  'already-recalled': 'already recalled earlier in this session',
};

/** The prompt a MemoriesRecalled answered: its id is the prompt's id with `.recalled`. */
async function promptOf(source: ViewerSource, recalled: StoredEnvelope): Promise<string | undefined> {
  const id = recalled.id.replace(/\.recalled$/, '');
  const near = await eventsBetween(source, recalled.seq - PROMPT_WINDOW, recalled.seq - 1);
  const prompt = near.find((e) => e.id === id);
  const text = (prompt?.data as { prompt?: unknown } | undefined)?.prompt;
  return typeof text === 'string' ? text : undefined;
}
