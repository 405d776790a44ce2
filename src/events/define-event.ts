import type * as z from 'zod/mini';

/**
 * An event type, declared once: its past-tense name, the schemaVersion it is written at today
 * and the schema of its `data` at that version. Older versions are lifted by upcasters in
 * `migrations/`; a name is never reused or renamed.
 */
export interface EventDefinition<T extends string = string, S extends z.ZodMiniType = z.ZodMiniType> {
  readonly type: T;
  readonly schemaVersion: number;
  readonly data: S;
  /** What it records, for `engram log` readers and the docs. */
  readonly summary: string;
}

export function defineEvent<T extends string, S extends z.ZodMiniType>(
  definition: EventDefinition<T, S>,
): EventDefinition<T, S> {
  return definition;
}

export type EventData<D> = D extends EventDefinition<string, infer S> ? z.infer<S> : never;
