import type { Clock } from '../clock.js';
import type { EventCatalog } from '../events/catalog.js';
import type { EventLog } from '../log/event-log.js';
import type { Projection } from '../projections/projector.js';
import type { ProjectorFault, ResetNote, RowFailure, StateStore } from './state-store.js';

// What the projection runner is given and what it tells: its options (each with its default),
// a lane's status, progress, and the committed rows it lends to reactors and queries.

export interface RunnerOptions {
  log: EventLog;
  catalog: EventCatalog;
  /** Where rows and checkpoints are kept; null for a read-only look at a home that has none. */
  store: StateStore | null;
  projections: readonly Projection[];
  clock: Clock;
  /**
   * Events folded between two commits while keeping up with the log. Smaller means less to
   * redo after a crash. Default 2000.
   */
  windowSize?: number;
  /**
   * The same during a rebuild or replay, where fewer commits make it faster (memory files are
   * rewritten, and synced, once per round). Default 100,000.
   */
  rebuildWindowSize?: number;
  /** Committed rows each projection keeps in memory. Default 20,000. */
  rowCacheSize?: number;
  /**
   * How long a row whose outputs could not be made waits before it is tried again; the wait
   * doubles with each failure, up to 10 minutes. Default 30 s.
   */
  retryFailedMs?: number;
  /**
   * Called between a sink's write and the commit of the round; tests use it to crash a worker
   * at exactly that instant. Default: nothing.
   */
  afterSinkApplied?: (projector: string, seq: number) => void;
}

export interface ProjectorStatus {
  name: string;
  projectorVersion: number;
  seq: number;
  fault: ProjectorFault | undefined;
  /** Why this projection must start over before it advances again (the worker does it). */
  resetPending: string | undefined;
  /** When it last started over without being asked to, and why. */
  lastReset: ResetNote | undefined;
  /** Rounds keep failing (not a fault of an event: a full disk, say): since when, and the latest error. */
  failing: { message: string; since: string; at: string } | undefined;
  /** Rows whose outputs could not be made, retried until they are. */
  failedRows: RowFailure[];
}

export type Progress = (done: number, total: number) => void;

/** Committed rows of one projection, for reactors and queries. */
export interface CommittedRows {
  get(key: string): Promise<unknown>;
  /** In key order; `reverse`: last key first (default false). */
  entries(prefix?: string, options?: { reverse?: boolean }): AsyncIterable<[string, unknown]>;
}
