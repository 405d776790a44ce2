import type * as z from 'zod/mini';

/**
 * Lifts one event type's `data` from `fromSchemaVersion` to the next. Upcasters run when an
 * event is read, never rewrite the log, and chain: v1 → v2 → v3. `from` is the old version's
 * schema, so an old event is still checked before it is lifted.
 */
export interface Upcaster<From extends z.ZodMiniType = z.ZodMiniType> {
  /** The migration's number and name, as its file is called in migrations/. */
  readonly id: string;
  readonly type: string;
  readonly fromSchemaVersion: number;
  readonly from: From;
  upcast(data: z.infer<From>): unknown;
}

export function defineUpcaster<From extends z.ZodMiniType>(upcaster: Upcaster<From>): Upcaster<From> {
  return upcaster;
}
