import type { Clock } from '../clock.js';
import type { EventCatalog } from '../events/catalog.js';
import type { Envelope } from '../events/envelope.js';
import type { EventLog } from '../log/event-log.js';
import type { EngramPaths } from '../paths.js';
import type { ProjectionRunner } from './projection-runner.js';

export interface ReactorContext {
  /** Committed rows of the projections: what their files already show. */
  runner: ProjectionRunner;
  /** To read the events this round reacts to (`from`..`to`). */
  log: EventLog;
  /** Checks and upcasts a stored event read from `log`. */
  catalog: EventCatalog;
  /** The first seq not yet reacted to (1 on a reactor's first round). */
  from: number;
  /** The log's head when the round began: the round reacts to the events up to here. */
  to: number;
  paths: EngramPaths;
  clock: Clock;
  /** Aborted when the worker stops: a run in flight gives up, and is done again next time. */
  signal: AbortSignal;
  /** A fresh unique event id, for an event with no cause to derive one from. */
  newId(): string;
  /**
   * Appends events now, checked against their schemas, before the round ends: for what must be
   * on record before a slow or fallible step (a distill request before the LLM call).
   */
  record(events: readonly Envelope[]): Promise<number>;
  /**
   * Which of these events came from another machine (the sync's importer brought them in): work
   * bound to the machine an event happened on (reading its transcript) is that machine's to do.
   */
  elsewhere?(ids: readonly string[]): Promise<boolean[]>;
}

/**
 * Acts on the world and records what it saw or did as new events; it never writes a projection.
 * Each reactor runs in a lane of its own (a slow one never holds up the others), keeps a cursor
 * of the seq it has reacted to (kept in the state store, so a restarted worker resumes where it
 * stopped), and runs only when the projections it reads have folded the log as far as the
 * events it reacts to, unfaulted. Events it appends should carry ids derived from what caused
 * them, so a round done twice (after a crash, before its cursor was saved) stores them once.
 * Rebuilds and replays never run reactors.
 */
export interface Reactor {
  readonly name: string;
  /** The projections whose rows it reads. Default: none. */
  readonly reads?: readonly string[];
  /** Returns the events to append at the end of the round. */
  react(ctx: ReactorContext): Promise<Envelope[]>;
  /**
   * True while it backs off (its last round failed on something outside, a server away): no
   * round starts and its cursor stays, until this says false. Default: never.
   */
  holdsOff?(): boolean;
  /**
   * Its rounds are not a reason to stay up: a worker whose only work is this reactor's may idle
   * out (the next worker does the round again from the cursor). Default false.
   */
  readonly idleWhileBusy?: boolean;
}
