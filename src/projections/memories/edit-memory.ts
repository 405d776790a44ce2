import { addressesAgent } from '../../distill/addresses-agent.js';
import type { EventOf } from '../../events/catalog.js';
import type { MemoryEdited } from '../../events/memory-events.js';
import type { RowReader } from '../projector.js';
import type { RowChange } from '../row-change.js';
import { EDITABLE_FIELDS, editedConfidence, later, stampOf, update } from './memory-changes.js';
import type { MemoriesRow } from './memories-rows.js';
import type { MemoryRow } from './memory-row.js';

type Field = (typeof EDITABLE_FIELDS)[number];

/**
 * A recorded edit (by hand, by the agent, by a command) of a memory. Each field it changed is
 * set unless an edit made later (by the events' times, stampOf) already set it, so two machines
 * that edited the same field agree on the later edit whatever order they fold the two in. The other edit stays in the log (`engram memories show NAME
 * --history`).
 */
export function editMemory(state: RowReader<MemoriesRow>, event: EventOf<typeof MemoryEdited>): RowChange<MemoriesRow>[] {
  const { data } = event;
  const stamp = stampOf(event);
  // Only what the person changed, when the event says; every field for events from before it did.
  const took = (field: Field) => data.changed === undefined || data.changed.includes(field);
  return update(state, event, data.memoryId, (row) => {
    const edits: Record<string, string> = { ...row.edits };
    const next: Record<string, unknown> = {};
    const set = (field: Field | 'editedHash', value: unknown) => {
      // Same time: the later folded wins (one machine's own order).
      if ((edits[field] ?? '') > stamp) return;
      edits[field] = stamp;
      next[field] = value;
    };
    if (took('name')) set('name', data.name);
    if (took('description')) set('description', data.description);
    if (took('type')) set('type', data.type);
    if (took('tier')) set('tier', data.tier);
    if (took('body')) set('body', data.body);
    if (took('confidence') && data.confidence !== undefined) set('confidence', editedConfidence(row, data.confidence, stamp));
    if (took('pinned') && data.pinned !== undefined) set('pinned', data.pinned);
    if (took('contradicts') && data.contradicts !== undefined) set('contradicts', data.contradicts);
    if (took('extra') && data.extra !== undefined) set('extra', data.extra as MemoryRow['extra']);
    if (took('implementedIn') && data.implementedIn !== undefined) set('implementedIn', data.implementedIn ?? undefined);
    if (data.contentHash !== undefined) set('editedHash', data.contentHash);
    const edited: MemoryRow = {
      ...row,
      ...(next as Partial<MemoryRow>),
      edits,
      // The latest of its events; a hand edit's own stamp stands for it (written back, the edit is byte for byte what was edited).
      modified: later(row.modified, data.modified ?? event.ts),
      // What a person changed stays theirs when an earlier telling of the lesson takes the memory over (memory-changes.ts).
      edited: [...new Set([...(row.edited ?? []), ...(data.changed ?? EDITABLE_FIELDS)])].sort(),
    };
    // The agent's own edit that makes a memory speak to the agent waits for the user's word.
    return data.by === 'agent' && row.status === 'active' && addressesAgent(`${edited.name}\n${edited.description}\n${edited.body}`) ? { ...edited, status: 'provisional' } : edited;
  });
}
