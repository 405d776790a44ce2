/**
 * A projection's change: "the row under `key` is now `row`" (null: there is no such row any
 * more), a whole row, never a delta. The projector only says which rows changed; its sink turns
 * rows into files. Within a round the runner keeps only the last row per key.
 */
export interface RowChange<R> {
  readonly key: string;
  readonly row: R | null;
}

export function rowChange<R>(key: string, row: R | null): RowChange<R> {
  return { key, row };
}
