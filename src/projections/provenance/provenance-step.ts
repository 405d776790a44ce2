import type { DomainEvent } from '../../events/catalog.js';
import type { MemoryRow } from '../memories/memory-row.js';

/** What one event did to a memory. */
export const PROVENANCE_ACTIONS = [
  'created', 'reinforced', 'corroborated', 'edited', 'pinned', 'unpinned', 'superseded', 'archived', 'forgotten', 'restored',
  'verified', 'graphed', 'updated',
] as const;
export type ProvenanceAction = (typeof PROVENANCE_ACTIONS)[number];

/** One event in a memory's history, as the provenance rows keep it: enough to list it; the event itself is read by its seq. */
export interface ProvenanceStep {
  readonly seq: number;
  readonly type: string;
  readonly ts: string;
  /** The session the event came from; '' for none (a command, the maintenance tick). */
  readonly session: string;
  readonly action: ProvenanceAction;
  /** Who did it, when the event says: an origin (correction, distiller, agent, import, user), `hand`, `agent`. */
  readonly by?: string;
  /** A reason, a status, who superseded it: one short line. */
  readonly detail?: string;
}

/** What `event` did to a memory that was `before` (undefined: it did not exist) and is now `after`. Pure. */
export function provenanceStep(event: DomainEvent, before: MemoryRow | undefined, after: MemoryRow): ProvenanceStep {
  const base = { seq: event.seq, type: event.type, ts: event.ts, session: event.session };
  if (!before) return { ...base, action: 'created', by: after.origin, detail: `${after.status}, confidence ${after.confidence}` };
  switch (event.type) {
    case 'MemoryReinforced':
      return { ...base, action: 'reinforced', by: event.data.by, detail: `confidence ${after.confidence}` };
    case 'MemoryCorroborated':
      return { ...base, action: 'corroborated', by: event.data.by };
    case 'MemoryEdited':
      return { ...base, action: 'edited', by: event.data.by };
    case 'MemoryPinned':
      return { ...base, action: 'pinned' };
    case 'MemoryUnpinned':
      return { ...base, action: 'unpinned' };
    case 'MemorySuperseded':
      return { ...base, action: 'superseded', detail: `by ${after.supersededBy ?? event.data.by}` };
    case 'MemoryArchived':
      return { ...base, action: 'archived', detail: event.data.reason };
    case 'MemoryForgotten':
      return { ...base, action: 'forgotten', detail: event.data.reason };
    case 'MemoryRestored':
      return { ...base, action: 'restored' };
    case 'MemoryVerified':
      return { ...base, action: 'verified', detail: `staleness penalty ${event.data.penalty}` };
    case 'MemoryGraphed':
      return { ...base, action: 'graphed' };
    case 'MemoryProposed':
    case 'PromptSubmitted':
    case 'DistillCompleted': {
      // A proposal that says what this memory already says is this memory said again.
      const by = event.type === 'MemoryProposed' ? event.data.origin : event.type === 'PromptSubmitted' ? 'correction' : 'distiller';
      if (after.reinforced > before.reinforced) return { ...base, action: 'reinforced', by, detail: `confidence ${after.confidence}` };
      return { ...base, action: 'updated', by };
    }
    default:
      return { ...base, action: 'updated' };
  }
}
