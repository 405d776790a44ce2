import type { EventOf } from '../../events/catalog.js';
import type { TeamMemoryReceived } from '../../events/team-events.js';
import type { RowReader } from '../projector.js';
import type { RowChange } from '../row-change.js';
import { propose, update } from './memory-changes.js';
import { memoryKey, rowAt, type MemoriesRow } from './memories-rows.js';

/** Where a teammate's memory starts: provisional, below a lesson of one's own. */
const TEAM_CONFIDENCE = 0.5;

/** The id a teammate's memory is held under here: theirs, prefixed with who shared it (never one of this machine's ids). */
export function teamMemoryId(from: string, memoryId: string): string {
  return `team:${from}:${memoryId}`;
}

/**
 * A teammate's memory (TeamMemoryReceived) in the local project's memory directory: made
 * provisional (kept out of MEMORY.md and recall until the user takes it up), its file saying
 * `shared_by: <them>`; a later state of it changes what this machine has not edited, and archives
 * or restores it as they did. It never reinforces one's own memories, nor they it: a teammate's
 * word is theirs until this user confirms it.
 */
export function teamMemory(state: RowReader<MemoriesRow>, event: EventOf<typeof TeamMemoryReceived>): RowChange<MemoriesRow>[] {
  const { data } = event;
  const id = teamMemoryId(data.from, data.memoryId);
  if (!rowAt(state, memoryKey(id))) {
    if (data.state === 'archived') return [];
    return propose(state, event, {
      memoryId: id,
      origin: 'import',
      scope: 'project',
      name: data.name,
      description: data.description,
      type: data.type,
      ...(data.tier ? { tier: data.tier } : {}),
      body: data.body,
      status: 'provisional',
      confidence: TEAM_CONFIDENCE,
      extra: { top: [], metadata: [{ key: 'shared_by', value: data.from }] },
    }, { matchSame: false });
  }
  return update(state, event, id, (row) => {
    const mine = new Set(row.edited ?? []);
    const archived = data.state === 'archived' ? (row.archived ?? { at: event.ts, reason: `archived by ${data.from}` }) : undefined;
    return {
      ...row,
      name: mine.has('name') ? row.name : data.name,
      description: mine.has('description') ? row.description : data.description,
      type: mine.has('type') ? row.type : data.type,
      tier: mine.has('tier') ? row.tier : data.tier,
      body: mine.has('body') ? row.body : data.body,
      archived,
      modified: event.ts > row.modified ? event.ts : row.modified,
    };
  });
}
