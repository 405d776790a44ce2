import type { Envelope, StoredEnvelope } from '../events/envelope.js';
import type { CheckOptions, LogCheck } from './log-check.js';

export interface AppendResult {
  /** The events written, by id with the seq each was given, in order. */
  appended: Array<{ id: string; seq: number }>;
  /** Ids skipped because the log (or the same call) already held them. */
  duplicates: string[];
}

export interface ReadOptions {
  /** First seq to read. Default 1. */
  from?: number;
  /** Last seq to read, inclusive. Default: the head when the read starts. */
  to?: number;
  /** Events per yielded batch. Default 1000. */
  batchSize?: number;
}

/**
 * The append-only log: the only source of truth (DESIGN.md invariant 4). One writer appends;
 * events are numbered 1, 2, 3… without gaps; an id is stored at most once (invariant 5). This
 * is an interface so that a distributed log can carry it when one machine is outgrown. The one
 * exception to "without gaps": seqs a disk lost (see LogRepaired) stay unused, never reused.
 */
export interface EventLog {
  /**
   * This log's identity, made when it was created and kept in its metadata. A checkpoint records
   * the id of the log it was taken from, so a checkpoint of another log (a log swapped in by
   * `migrate`, or an empty one created where a log went missing) is never trusted.
   */
  readonly id: string;
  /** The highest seq written; 0 for an empty log. */
  readonly head: number;
  /** Appends in order, skipping ids already present. Atomic: all of a call or none. */
  append(events: readonly Envelope[]): Promise<AppendResult>;
  /** Which of these ids the log holds. */
  has(ids: readonly string[]): Promise<boolean[]>;
  read(options?: ReadOptions): AsyncIterable<StoredEnvelope[]>;
  /** Reads every block of the log once and says which seqs cannot be read (see LogCheck). */
  check(options?: CheckOptions): Promise<LogCheck>;
  /** Small named values that live with the log (applied migrations, creation time). */
  getMeta(name: string): Promise<string | undefined>;
  setMeta(name: string, value: string): Promise<void>;
  close(): Promise<void>;
}
