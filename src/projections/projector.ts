import type { OwnershipLedger } from '../ownership/ownership-ledger.js';
import type { DomainEvent, EventType } from '../events/catalog.js';
import type { EventFacts } from './event-facts.js';
import type { RowChange } from './row-change.js';

/**
 * A projection's state is rows: key → row, kept by the runner in LevelDB beside the log and
 * read through this view. A projector reads the rows an event concerns and nothing else, so
 * folding one event costs the same with a million events of history as with ten.
 */
export interface RowReader<R> {
  /** The row as the events before this one left it; undefined when there is none. */
  get(key: string): R | undefined;
  /**
   * Facts computed once per event for every lane that folds it (event-facts.ts), from whoever
   * folds the lanes; absent, a projector computes what it needs itself.
   */
  readonly facts?: EventFacts;
}

/**
 * A projection's logic, declared once. `evolve(state, event) → changes`: the rows this event
 * replaced, each whole; the state after the event is the state before with those rows put in.
 *
 * `evolve` is pure: no clock, no randomness, no I/O (DESIGN.md invariant 4), and it never
 * mutates a row it read or returned, because the runner may call it again for the same event
 * (when a row it asked for had to be loaded first) and keeps returned rows as they are.
 */
export interface Projector<R> {
  readonly name: string;
  /** Bump it when the output for the same events changes: the worker then rebuilds this one alone. */
  readonly projectorVersion: number;
  readonly handles: readonly EventType[];
  evolve(state: RowReader<R>, event: DomainEvent): readonly RowChange<R>[];
}

/** What a sink recorded of one output it made (a file, for the file sink), kept with the rows. */
export interface OutputRecord {
  /** The row that produced it. */
  key: string;
  /** Hash of the content engram last put there. */
  hash: string;
  /**
   * `written`: engram's content is there. `edited`: someone changed it since, and engram left it
   * alone. `foreign`: it was there before engram and is not engram's, so it was left alone.
   */
  state: 'written' | 'edited' | 'foreign';
}

export interface SinkContext {
  /** What this sink recorded of each output path in earlier rounds (undefined: nothing). */
  outputs(paths: readonly string[]): Promise<Array<OutputRecord | undefined>>;
  /** Whose each file outside ENGRAM_HOME is: what engram wrote there, kept across resets (src/ownership). */
  ledger: OwnershipLedger;
  /**
   * The lane's rows under a prefix as this round leaves them (committed, with the round's
   * changes over them), in key order, read as far as the reader goes (leaving the loop stops
   * the read): for an output made of many rows (a directory's MEMORY.md from its memories'
   * ranked rows), so that no single row has to hold them all and the output reads only what it shows.
   */
  scan(prefix: string): AsyncIterable<[key: string, row: unknown]>;
}

export interface SinkReport {
  /** Output records to keep (or, with null, forget) in the same batch as the rows and checkpoint. */
  outputs: Array<[path: string, record: OutputRecord | null]>;
  /**
   * Rows whose outputs could not be made (a name too long, a directory not writable). They are
   * recorded, shown by `engram doctor` and retried; they never hold back the other rows.
   */
  failed: Array<{ key: string; message: string }>;
}

/**
 * Applies rows to the world. Idempotent: applying the same changes twice leaves what once did.
 * A failure of one row goes in the report; a throw means nothing of the round counts, and the
 * runner goes back to its last committed state and tries the round again later.
 */
export interface Sink<R> {
  apply(changes: readonly RowChange<R>[], context: SinkContext): Promise<SinkReport>;
  /** Drops what this sink owns, before a rebuild. Never deletes a memory file (invariant 6). */
  reset(): Promise<void>;
  /** Where an output path it recorded is on disk, for `engram doctor` to check. Default: it writes no files. */
  locate?(path: string): string;
}

export interface Projection<R = unknown> {
  projector: Projector<R>;
  sink: Sink<R>;
}

export function defineProjector<R>(projector: Projector<R>): Projector<R> {
  return projector;
}

/** A sink for projections that only keep rows (counts the doctor reads): it writes nothing. */
export const rowsOnlySink: Sink<unknown> = {
  apply: async () => ({ outputs: [], failed: [] }),
  reset: async () => undefined,
};

/**
 * Folds events through a projector in memory: what the runner computes, without LevelDB or a
 * sink. `rows` is the state to start from and is not changed; returns the state after, and the
 * last row each key was given.
 */
export function fold<R>(
  projector: Projector<R>,
  events: Iterable<DomainEvent>,
  rows: ReadonlyMap<string, R> = new Map(),
): { rows: Map<string, R>; changes: Map<string, R | null> } {
  const handled = new Set<string>(projector.handles);
  const state = new Map(rows);
  const changes = new Map<string, R | null>();
  const reader: RowReader<R> = { get: (key) => state.get(key) };
  for (const event of events) {
    if (!handled.has(event.type)) continue;
    for (const change of projector.evolve(reader, event)) {
      changes.set(change.key, change.row);
      if (change.row === null) state.delete(change.key);
      else state.set(change.key, change.row);
    }
  }
  return { rows: state, changes };
}
