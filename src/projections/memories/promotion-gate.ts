import type { DomainEvent, EventOf } from '../../events/catalog.js';
import type { TurnAuditCompleted } from '../../events/skill-events.js';
import type { RecordedCandidate as DistillCandidate, DistillCompleted, MemoryGraph } from '../../events/distill-events.js';
import type { RouteAccepted, RouteDeclined } from '../../events/distill-events.js';
import { contentHash } from '../../content-hash.js';
import { heldForUser } from '../../distill/addresses-agent.js';
import { projectMemoryDir } from '../../paths.js';
import type { RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { findSameMemory } from './match-memory.js';
import { propose, reinforce, update } from './memory-changes.js';
import { dirKey, memoryKey, routeKey, rowAt, type MemoriesRow } from './memories-rows.js';
import type { DirRow, RouteRow } from './memory-row.js';

export { routeKey, type RouteRow };

/** DESIGN.md: an inferred memory starts provisional at this confidence, until corroborated. */
export const PROVISIONAL_CONFIDENCE = 0.3;
/** A session's episode is what happened, recorded: active from the start. */
const EPISODE_CONFIDENCE = 0.5;
/** The memory id of a session's episode: one per session, updated when it is distilled again. */
export const episodeId = (session: string): string => `episode:${session}`;

type Completed = EventOf<typeof DistillCompleted>;

/**
 * The promotion gate, applied to a recorded distillation (DESIGN.md "Capture → distiller"): the
 * episode becomes (or updates) the session's active episodic memory; a candidate that says what
 * a memory from an earlier session says reinforces it (and a provisional one becomes active);
 * any other is a new provisional memory, kept out of MEMORY.md, the summary and recall until a
 * later session says it again. `contradicts` is kept on the row and retires the old memory only
 * once the new one is active (the maintenance tick's supersession). Candidates routed to
 * CLAUDE.md or docs/knowledge/ become proposals. Pure: the same event gives the same rows.
 */
export function promote(state: RowReader<MemoriesRow>, event: Completed): RowChange<MemoriesRow>[] {
  const rows = new Overlay(state);
  const { episode, candidates } = event.data.answer;
  const existing = rowAt(rows, memoryKey(episodeId(event.session)));
  if (!existing) {
    rows.apply(propose(rows, event, {
      memoryId: episodeId(event.session), origin: 'distiller', scope: 'project', name: episode.name, description: episode.description,
      // propose() holds one that speaks to the agent (heldForUser) provisional.
      type: 'project', tier: 'episodic', body: withNewline(episode.body), status: 'active', confidence: EPISODE_CONFIDENCE, created: learnedAt(event),
    }, { matchSame: false }));
    rows.apply(withGraph(rows, event, episodeId(event.session), episode.graph));
  } else if (existing.editedHash === undefined) {
    // A resumed session distilled again updates its episode; an episode someone edited is theirs.
    rows.apply(update(rows, event, existing.id, (row) => {
      const next = { ...row, name: episode.name, description: episode.description, body: withNewline(episode.body), graph: episode.graph ?? row.graph, modified: event.ts };
      // An episode is active unless its text speaks to the agent (then it waits for the user).
      return row.status === 'superseded' ? next : { ...next, status: heldForUser(next) ? 'provisional' : 'active' };
    }));
  }
  for (const candidate of candidates) {
    const destination = candidate.destination ?? 'memory';
    if (destination === 'skip') continue;
    if (destination === 'claude_md' || destination === 'knowledge') rows.apply(proposeRoute(rows, event, candidate, destination));
    else rows.apply(gate(rows, event, candidate));
  }
  return rows.changes();
}

/**
 * A distillation's memories are dated by when the session happened, when it says so (see
 * DistillCompleted); an audited turn's by the audit, which follows the turn.
 */
function learnedAt(event: DomainEvent): string {
  return event.type === 'DistillCompleted' ? (event.data.learnedAt ?? event.ts) : event.ts;
}

function gate(rows: Overlay, event: DomainEvent, candidate: DistillCandidate): RowChange<MemoriesRow>[] {
  const id = `distilled:${event.session}:${contentHash(`${candidate.type}\n${candidate.name}`).slice(0, 12)}`;
  if (rowAt(rows, memoryKey(id))) return [];
  // Episodes say what happened once; they corroborate nothing.
  const same = findSameMemory(rows, projectMemoryDir(event.project), candidate.type, candidate, (entry) => entry.tier === 'episodic');
  const row = same === undefined ? undefined : rowAt(rows, memoryKey(same));
  if (row) {
    // A session does not corroborate itself.
    if (row.originSession === event.session) return [];
    return update(rows, event, row.id, (before) => reinforce(before, learnedAt(event)));
  }
  const proposed = propose(rows, event, {
    memoryId: id, origin: 'distiller', scope: 'project', name: candidate.name, description: candidate.description, type: candidate.type,
    tier: candidate.tier, body: withNewline(candidate.body), status: 'provisional', confidence: PROVISIONAL_CONFIDENCE,
    contradicts: candidate.contradicts, created: learnedAt(event),
  }, { matchSame: false });
  const after = new Overlay(rows);
  after.apply(proposed);
  after.apply(withGraph(after, event, id, candidate.graph));
  return after.changes();
}

function proposeRoute(rows: Overlay, event: Completed, candidate: DistillCandidate, destination: RouteRow['destination']): RowChange<MemoriesRow>[] {
  const routeId = `r-${contentHash(`${event.session}\n${destination}\n${candidate.name}`).slice(0, 12)}`;
  if (rowAt(rows, routeKey(routeId))) return [];
  const route: RouteRow = {
    routeId, project: event.project, session: event.session, destination, name: candidate.name, description: candidate.description,
    body: candidate.body, proposedAt: event.ts, status: 'proposed', path: undefined,
  };
  return [rowChange<MemoriesRow>(routeKey(routeId), route), ...countRoutes(rows, event.project, event.ts, +1)];
}

/**
 * The post-turn audit's facts, through the same gate as a distilled candidate: one that says
 * what an earlier session's memory says reinforces it, any other is a new provisional memory.
 * Only memories: a fact routed elsewhere is dropped, and nothing here touches a skill.
 */
export function promoteAuditedFacts(state: RowReader<MemoriesRow>, event: EventOf<typeof TurnAuditCompleted>): RowChange<MemoriesRow>[] {
  const rows = new Overlay(state);
  for (const fact of event.data.facts) {
    if ((fact.destination ?? 'memory') === 'memory') rows.apply(gate(rows, event, fact));
  }
  return rows.changes();
}

/** A route's answer: accepted (written by the CLI, recorded here) or declined. Only a proposed route changes. */
export function answerRoute(
  state: RowReader<MemoriesRow>,
  event: EventOf<typeof RouteAccepted> | EventOf<typeof RouteDeclined>,
): RowChange<MemoriesRow>[] {
  const route = rowAt(state, routeKey(event.data.routeId));
  if (!route || route.status !== 'proposed') return [];
  const next: RouteRow = event.type === 'RouteAccepted' ? { ...route, status: 'accepted', path: event.data.path } : { ...route, status: 'declined' };
  return [rowChange<MemoriesRow>(routeKey(route.routeId), next), ...countRoutes(state, route.project, event.ts, -1)];
}

function countRoutes(rows: RowReader<MemoriesRow>, project: string, at: string, delta: number): RowChange<MemoriesRow>[] {
  const dir = projectMemoryDir(project);
  const row: DirRow = rowAt(rows, dirKey(dir)) ?? { dir, project, asOf: at };
  const pendingRoutes = Math.max(0, (row.pendingRoutes ?? 0) + delta);
  return [rowChange<MemoriesRow>(dirKey(dir), { ...row, pendingRoutes: pendingRoutes === 0 ? undefined : pendingRoutes })];
}

function withGraph(rows: Overlay, event: DomainEvent, id: string, graph: MemoryGraph | undefined): RowChange<MemoriesRow>[] {
  if (!graph || (graph.entities.length === 0 && graph.relations.length === 0)) return [];
  return update(rows, event, id, (row) => ({ ...row, graph }));
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The rows as the changes so far leave them, so each step of one event sees the steps before it. */
class Overlay implements RowReader<MemoriesRow> {
  readonly #base: RowReader<MemoriesRow>;
  readonly #changed = new Map<string, MemoriesRow | null>();

  constructor(base: RowReader<MemoriesRow>) {
    this.#base = base;
  }

  get(key: string): MemoriesRow | undefined {
    if (this.#changed.has(key)) return this.#changed.get(key) ?? undefined;
    return this.#base.get(key);
  }

  apply(changes: readonly RowChange<MemoriesRow>[]): void {
    for (const change of changes) this.#changed.set(change.key, change.row);
  }

  changes(): RowChange<MemoriesRow>[] {
    return [...this.#changed].map(([key, row]) => rowChange(key, row));
  }
}
