import { z } from 'zod';
import { MEMORY_TYPES } from '../../events/memory-kinds.js';
import { lastConfirmed, staleness, strength } from '../../memories/scores.js';
import { entryDirOf, rowsOfKind } from '../../projections/memories/memories-rows.js';
import type { DirEntry, DirRow, MemoryRow } from '../../projections/memories/memory-row.js';
import { html } from '../html.js';
import { clip, layout } from '../layout.js';
import { href, type ViewContext } from '../view-context.js';
import type { ViewerSource } from '../viewer-source.js';

export const MEMORY_STATUSES = ['active', 'provisional', 'superseded', 'archived'] as const;
const SORTS = ['strength', 'staleness', 'name'] as const;
/** Memories shown on one page of the list. */
export const MEMORIES_PER_PAGE = 100;

export const memoriesQuery = z.object({
  project: z.string().max(4096).optional(),
  type: z.enum(MEMORY_TYPES).or(z.literal('')).optional(),
  status: z.enum(MEMORY_STATUSES).or(z.literal('')).optional(),
  sort: z.enum(SORTS).default('strength'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export type MemoriesQuery = z.infer<typeof memoriesQuery>;

/** What scoring needs of a memory: its row, or its entry in its directory's row (same fields). */
type Scorable = Pick<MemoryRow, 'name' | 'type' | 'tier' | 'confidence' | 'lastReinforced' | 'pinned' | 'archived' | 'status'> & Partial<Pick<MemoryRow, 'created' | 'modified'>>;

/** What the list shows of a memory, scored at the page's time. */
export interface ScoredMemory {
  readonly id: string;
  readonly project: string;
  readonly entry: Pick<DirEntry, 'name' | 'description' | 'type' | 'pinned'>;
  readonly status: (typeof MEMORY_STATUSES)[number];
  readonly strength: number;
  readonly staleness: number;
}

export function memoryStatus(memory: Pick<MemoryRow, 'archived' | 'status'>): ScoredMemory['status'] {
  return memory.archived ? 'archived' : memory.status;
}

export function scoreOf(id: string, project: string, memory: Scorable & Pick<DirEntry, 'description'>, penalty: number, now: Date): ScoredMemory {
  // Dates parsed once, not once by each score: parsing is most of what scoring 10,000 memories costs.
  const confirmed = lastConfirmed({ lastReinforced: canonical(memory.lastReinforced), created: canonical(memory.created), modified: canonical(memory.modified) });
  const input = { name: memory.name, type: memory.type, tier: memory.tier, confidence: memory.confidence, lastReinforced: confirmed, pinned: memory.pinned };
  return {
    id,
    project,
    entry: memory,
    status: memoryStatus(memory),
    strength: strength(input, now),
    staleness: Math.min(100, staleness(input, now) + penalty),
  };
}

/**
 * A time as the projections write it (toISOString: `2026-11-01T09:05:00.000Z`) read directly; any
 * other form is left to the scores' own careful parser.
 */
function canonical(value: string | undefined): string | Date | undefined {
  return value !== undefined && value.length === 24 && value[10] === 'T' && value[23] === 'Z' ? new Date(value) : value;
}

/** The memories, filtered by project, type and status, sorted by strength, staleness, name or change; a page at a time. */
export async function memoriesPage(source: ViewerSource, ctx: ViewContext, query: MemoriesQuery): Promise<string> {
  const projects = new Set<string>();
  const shown: ScoredMemory[] = [];
  let total = 0;
  // A memory's entry holds what the list needs of it: a small row each, not the memory's body.
  const memories = source.rows('memories');
  const dirs = new Map<string, DirRow>();
  for await (const [, dir] of rowsOfKind((prefix) => memories.entries(prefix), 'dir')) dirs.set(dir.dir, dir);
  for await (const [key, entry] of rowsOfKind((prefix) => memories.entries(prefix), 'entry')) {
    const dir = dirs.get(entryDirOf(key));
    const project = dir?.project ?? '';
    total++;
    projects.add(project);
    if (query.project !== undefined && query.project !== '' && project !== (query.project === '(global)' ? '' : query.project)) continue;
    if (query.type && entry.type !== query.type) continue;
    if (query.status && memoryStatus(entry) !== query.status) continue;
    shown.push(scoreOf(entry.id, project, entry, entry.penalty, ctx.now));
  }
  const sign = query.order === 'asc' ? 1 : -1;
  const key = (m: ScoredMemory): number | string => (query.sort === 'strength' ? m.strength : query.sort === 'staleness' ? m.staleness : m.entry.name.toLowerCase());
  shown.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -sign : x > y ? sign : 0) || (a.id < b.id ? -1 : 1);
  });
  const pages = Math.max(1, Math.ceil(shown.length / MEMORIES_PER_PAGE));
  const page = Math.min(query.page, pages);
  const slice = shown.slice((page - 1) * MEMORIES_PER_PAGE, page * MEMORIES_PER_PAGE);
  const filters = { project: query.project, type: query.type, status: query.status };
  const sortLink = (sort: MemoriesQuery['sort'], label: string) => {
    const order = query.sort === sort && query.order === 'desc' ? 'asc' : 'desc';
    return html`<a href="${href(ctx, '/memories', { ...filters, sort, order })}">${label}${query.sort === sort ? (query.order === 'desc' ? ' ▾' : ' ▴') : ''}</a>`;
  };
  const select = (name: string, values: readonly string[], current: string | undefined, label: (v: string) => string = (v) => v) =>
    html`<select name="${name}"><option value="">any</option>${values.map((v) => html`<option value="${v}" ${v === current ? html`selected` : ''}>${label(v)}</option>`)}</select>`;
  const projectNames = [...projects].sort().map((p) => (p === '' ? '(global)' : p));
  const body = html`
<form class="filters" method="get" action="/memories">
  <input type="hidden" name="t" value="${ctx.token}">${ctx.asOf !== undefined ? html`<input type="hidden" name="asof" value="${ctx.asOf}">` : ''}
  <label>project ${select('project', projectNames, query.project)}</label>
  <label>type ${select('type', MEMORY_TYPES, query.type)}</label>
  <label>status ${select('status', MEMORY_STATUSES, query.status)}</label>
  <input type="hidden" name="sort" value="${query.sort}"><input type="hidden" name="order" value="${query.order}">
  <button id="filter">filter</button>
</form>
<p class="muted" id="count">${shown.length} of ${total} memories; page ${page} of ${pages}. ★ pinned.</p>
<table id="memories"><thead><tr><th>${sortLink('name', 'name')}</th><th>type</th><th>status</th><th>${sortLink('strength', 'strength (0–1)')}</th><th>${sortLink('staleness', 'staleness (0–100)')}</th><th>project</th></tr></thead><tbody>
${slice.map((m) => html`<tr data-id="${m.id}"><td>${m.entry.pinned ? html`<span class="pin" title="pinned">★ </span>` : ''}<a href="${href(ctx, '/memory', { id: m.id })}">${clip(m.entry.name, 80)}</a><div class="muted">${clip(m.entry.description, 140)}</div></td>
<td>${m.entry.type}</td><td><span class="tag st-${m.status}">${m.status}</span></td><td class="n">${m.strength.toFixed(2)}</td><td class="n">${m.staleness.toFixed(0)}</td><td>${m.project === '' ? '(global)' : clip(m.project, 40)}</td></tr>`)}
</tbody></table>
<div class="pager">${page > 1 ? html`<a href="${href(ctx, '/memories', { ...filters, sort: query.sort, order: query.order, page: page - 1 })}">← previous</a>` : ''}${page < pages ? html`<a id="next" href="${href(ctx, '/memories', { ...filters, sort: query.sort, order: query.order, page: page + 1 })}">next →</a>` : ''}</div>`;
  return layout(ctx, 'Memories', 'memories', body);
}
