import { stalenessBand } from '../../memories/scores.js';
import { renderMemoryFile } from '../../memories/memory-file.js';
import { memoryFileContent } from '../../projections/memories/materialize-memories.js';
import type { MemoryRow } from '../../projections/memories/memory-row.js';
import type { ProvenanceStep } from '../../projections/provenance/provenance.js';
import { html } from '../html.js';
import { layout } from '../layout.js';
import { href, type ViewContext } from '../view-context.js';
import { viewerActions } from '../viewer-actions.js';
import { scoreOf } from './memories-page.js';


/**
 * A memory: its frontmatter and body as its file has them, its scores, the actions a person can
 * take on it (each a form that POSTs with the token), and its provenance: every event that made
 * or changed it, each linked to the event and to its session.
 */
export function memoryPage(ctx: ViewContext, row: MemoryRow, history: readonly ProvenanceStep[], total: number, message: string | undefined): string {
  const file = renderMemoryFile(memoryFileContent(row));
  const frontmatter = /^---\n([\s\S]*?)\n---\n?/.exec(file)?.[1] ?? '';
  const scored = scoreOf(row.id, row.project, row, row.verification?.penalty ?? 0, ctx.now);
  const actions = ctx.asOf === undefined
    ? viewerActions.filter((action) => action.applies(row)).map((action) => html`<form method="post" action="${href(ctx, '/action', {}, true)}">
<input type="hidden" name="action" value="${action.name}"><input type="hidden" name="id" value="${row.id}">${action.asksReason ? html`<input name="reason" placeholder="${action.placeholder ?? 'reason'}" maxlength="500">` : ''}<button id="action-${action.name}">${action.label}</button></form>`)
    : html`<span class="muted">Actions act on the live memory: go back to live to use them.</span>`;
  const body = html`
${message ? html`<div class="msg" id="message">${message}</div>` : ''}
<p><span class="tag st-${scored.status}" id="status">${scored.status}</span>${row.pinned ? html`<span class="pin" id="pinned">★ pinned</span>` : ''}
 ${row.type} · strength ${scored.strength.toFixed(2)} of 1 · staleness ${scored.staleness.toFixed(0)} of 100 (${stalenessBand(scored.staleness)}) · ${row.project === '' ? 'global' : row.project}
 · <span class="muted">${row.dir}/${row.archived ? '_archive/' : ''}${row.file}</span></p>
<div class="actions">${actions}</div>
<h2>Provenance</h2>
${history.length === 0
    ? html`<p class="muted">No provenance recorded for it (a rebuild of the provenance projection makes it).</p>`
    : html`${total > history.length ? html`<p class="muted">The newest ${history.length} of ${total} events; \`engram memories show NAME --history\` lists them all.</p>` : ''}<table id="provenance"><thead><tr><th>seq</th><th>when</th><th>what</th><th>by</th><th>detail</th><th>session</th></tr></thead><tbody>
${history.map((step) => html`<tr><td class="n"><a href="${href(ctx, '/event', { seq: step.seq })}">${step.seq}</a></td><td class="muted">${step.ts.slice(0, 19).replace('T', ' ')}</td><td>${step.action} <span class="muted">(${step.type})</span></td><td>${step.by ?? ''}</td><td>${step.detail ?? ''}</td>
<td>${step.session === '' ? html`<span class="muted">none</span>` : html`<a class="session" href="${href(ctx, '/log', { session: step.session, before: step.seq + 1 })}">${step.session.slice(0, 12)}</a>`}</td></tr>`)}
</tbody></table>`}
<h2>Frontmatter</h2><pre id="frontmatter">${frontmatter}</pre>
<h2>Body</h2><pre id="body">${row.body}</pre>`;
  return layout(ctx, row.name, 'memories', body);
}
