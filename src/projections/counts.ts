import { knownDefinitions, type EventType } from '../events/catalog.js';
import { defineProjector, type Projector } from './projector.js';
import { rowChange, type RowChange } from './row-change.js';
import { keyCache } from './key-cache.js';

const TYPE = 'type:';
const REJECTED = 'rejected';

/** The latest hook inputs that could not be read, for `engram doctor`. */
export interface RejectedInputs {
  readonly latest: ReadonlyArray<{ seq: number; ts: string; hook: string; reason: string }>;
}

type CountsRow = number | RejectedInputs;

/** How many rejected inputs the doctor lists. */
const LATEST = 3;

/**
 * How many events of each type the log holds, and the latest rejected hook inputs: what
 * `engram doctor` and `engram log stats` report, kept as rows so neither reads the whole log.
 * Writes no file.
 */
export function countsProjector(): Projector<CountsRow> {
  // This lane's own keys (key-cache.ts): made with the projection, gone with it.
  const typeKeyOf = keyCache(TYPE);
  return defineProjector<CountsRow>({
    name: 'counts',
    projectorVersion: 1,
    handles: knownDefinitions.map((definition) => definition.type as EventType),
    evolve(state, event) {
      const key = typeKeyOf(event.type);
      const changes: RowChange<CountsRow>[] = [rowChange(key, ((state.get(key) as number | undefined) ?? 0) + 1)];
      if (event.type === 'HookInputRejected') {
        const before = (state.get(REJECTED) as RejectedInputs | undefined)?.latest ?? [];
        const entry = { seq: event.seq, ts: event.ts, hook: event.data.hook, reason: event.data.reason };
        changes.push(rowChange(REJECTED, { latest: [...before, entry].slice(-LATEST) }));
      }
      return changes;
    },
  });
}

/** The counts kept by the rows of the counts projection: type → events. */
export function countsByType(rows: Iterable<[string, unknown]>): Record<string, number> {
  const byType: Record<string, number> = {};
  for (const [key, row] of rows) if (key.startsWith(TYPE)) byType[key.slice(TYPE.length)] = row as number;
  return byType;
}

export const rejectedInputsKey = REJECTED;
