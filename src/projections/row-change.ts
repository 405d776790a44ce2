import type { Change } from './projector.js';

/**
 * A projection's change: "the row under `key` is now `row`", a whole row, never a delta. The
 * projector only says which row changed; its sink turns rows into files. Cheap to make per event
 * (one small object, no rendering), and the runner keeps only the last row per key in a batch.
 */
export interface RowChange<R> extends Change {
  readonly row: R;
}

export function rowChange<R>(key: string, row: R): RowChange<R> {
  return { key, row };
}
