import type { StoredEnvelope } from '../../events/envelope.js';
import { html } from '../html.js';
import { layout } from '../layout.js';
import { href, type ViewContext } from '../view-context.js';

/** One event as the log holds it: its envelope, and its data as JSON (an LLM answer, a prompt). */
export function eventPage(ctx: ViewContext, event: StoredEnvelope): string {
  const body = html`<p>${event.type} v${event.schemaVersion} · ${event.ts} · id <code>${event.id}</code>
${event.session ? html` · session <a class="session" href="${href(ctx, '/log', { session: event.session, before: event.seq + 1 })}">${event.session}</a>` : ''}
${event.project ? html` · project ${event.project}` : ''}</p>
<pre id="data">${JSON.stringify(event.data, null, 2)}</pre>`;
  return layout(ctx, `Event ${event.seq}`, 'timeline', body);
}
