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

/** An event type as written in its module: `data` builds the schema (see defineEvent). */
export interface EventDeclaration<T extends string, S extends z.ZodMiniType> {
  readonly type: T;
  readonly schemaVersion: number;
  readonly data: () => S;
  readonly summary: string;
}

/**
 * The definition of a declared event type. Its schema is built the first time `data` is read,
 * then kept: a hook appends one or two of the fifty types and building every schema at load was
 * half of a hook's module evaluation (issue 22); the catalog builds each on the first event of
 * its type.
 */
export function defineEvent<T extends string, S extends z.ZodMiniType>(declaration: EventDeclaration<T, S>): EventDefinition<T, S> {
  let schema: S | undefined;
  return {
    type: declaration.type,
    schemaVersion: declaration.schemaVersion,
    summary: declaration.summary,
    get data() {
      return (schema ??= declaration.data());
    },
  };
}

export type EventData<D> = D extends EventDefinition<string, infer S> ? z.infer<S> : never;
