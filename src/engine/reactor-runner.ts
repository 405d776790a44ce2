import PQueue from 'p-queue';
import type { Clock } from '../clock.js';
import { stampProducer } from '../events/stamp-producer.js';
import { describeError } from '../errors.js';
import type { EventCatalog } from '../events/catalog.js';
import type { Envelope } from '../events/envelope.js';
import { newEventId, wallMicros } from '../events/event-id.js';
import type { EventLog } from '../log/event-log.js';
import type { EngramPaths } from '../paths.js';
import type { ProjectionRunner } from './projection-runner.js';
import type { Reactor, ReactorContext } from './reactor.js';
import type { StateStore } from './state-store.js';

export interface ReactorRunnerOptions {
  log: EventLog;
  catalog: EventCatalog;
  runner: ProjectionRunner;
  /** Where cursors are kept; null: nowhere (an engine that only reads runs no reactor). */
  store: StateStore | null;
  paths: EngramPaths;
  clock: Clock;
  reactors: readonly Reactor[];
  /** Which events came from another machine (see ReactorContext.elsewhere). Default: none did. */
  elsewhere?: (ids: readonly string[]) => Promise<boolean[]>;
}

export interface ReactorStatus {
  name: string;
  /** The last seq it reacted to. */
  cursor: number;
  running: boolean;
  /** The latest failed round, retried on the next. */
  failing: { message: string; at: string } | undefined;
}

interface Lane {
  readonly reactor: Reactor;
  readonly queue: PQueue;
  cursor: number;
  failing: ReactorStatus['failing'];
}

/** Runs the reactors, each in its own lane, each from its own cursor. */
export class ReactorRunner {
  readonly #options: ReactorRunnerOptions;
  readonly #lanes = new Map<string, Lane>();
  readonly #abort = new AbortController();

  constructor(options: ReactorRunnerOptions) {
    this.#options = options;
  }

  async start(): Promise<void> {
    const { store, log } = this.#options;
    for (const reactor of this.#options.reactors) {
      const saved = store ? await store.reactorCursor(reactor.name) : undefined;
      // A cursor of another log (a migrated one) starts over: derived ids keep results single.
      const cursor = saved && saved.logId === log.id && saved.seq <= log.head ? saved.seq : 0;
      this.#lanes.set(reactor.name, { reactor, queue: new PQueue({ concurrency: 1 }), cursor, failing: undefined });
    }
  }

  status(): ReactorStatus[] {
    return [...this.#lanes.values()].map((lane) => ({
      name: lane.reactor.name,
      cursor: lane.cursor,
      running: lane.queue.pending > 0,
      failing: lane.failing,
    }));
  }

  /** Whether any reactor is at work: a worker with one busy is not idle. */
  get busy(): boolean {
    return [...this.#lanes.values()].some((lane) => !lane.reactor.idleWhileBusy && lane.queue.size + lane.queue.pending > 0);
  }

  /** One round of every reactor whose projections are ready; resolves when all have run. */
  async round(): Promise<number> {
    const results = await Promise.allSettled([...this.#lanes.values()].map((lane) => this.#schedule(lane)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return results.reduce((sum, result) => sum + (result.status === 'fulfilled' ? result.value : 0), 0);
  }

  /**
   * Live mode: starts a round in every lane not already busy, without waiting. `onAppended`
   * runs when a round appended events (the projections have something new); `onError` gets a
   * failed round.
   */
  kick(callbacks: { onAppended(): void; onError(err: unknown): void }): void {
    for (const lane of this.#lanes.values()) {
      if (lane.queue.size + lane.queue.pending > 0) continue;
      this.#schedule(lane).then(
        (appended) => appended > 0 && callbacks.onAppended(),
        (err: unknown) => callbacks.onError(err),
      );
    }
  }

  async idle(): Promise<void> {
    await Promise.all([...this.#lanes.values()].map((lane) => lane.queue.onIdle()));
  }

  /** Stops every run in flight; what it was doing is done again by the next worker. */
  abort(): void {
    this.#abort.abort(new Error('the worker is stopping'));
  }

  /**
   * Runs a reactor once, outside the lanes, over the whole log and without a cursor: for a
   * command that asks for one piece of a reactor's work now (`engram distill --session`).
   */
  async runOnce(reactor: Reactor): Promise<number> {
    if (!this.#options.store) return 0;
    const round = this.#round(1, this.#options.log.head);
    const events = await reactor.react(round.context);
    if (events.length > 0) await round.context.record(events);
    return round.appended();
  }

  /** A round's context from `from` to `to`, and a count of what its `record` appended. */
  #round(from: number, to: number): { context: ReactorContext; appended(): number } {
    const { log, runner, catalog, clock, paths } = this.#options;
    let appended = 0;
    const record = async (events: readonly Envelope[]) => {
      for (const event of events) catalog.read(event);
      const added = (await log.append(stampProducer(events))).appended.length;
      appended += added;
      return added;
    };
    const elsewhere = this.#options.elsewhere ?? ((ids: readonly string[]) => Promise.resolve(ids.map(() => false)));
    const context: ReactorContext = {
      runner, log, catalog, from, to, paths, clock, signal: this.#abort.signal, newId: () => newEventId(wallMicros(), process.pid), record, elsewhere,
    };
    return { context, appended: () => appended };
  }

  #schedule(lane: Lane): Promise<number> {
    return lane.queue.add(() => this.#run(lane)) as Promise<number>;
  }

  async #run(lane: Lane): Promise<number> {
    const { log, store, clock } = this.#options;
    if (!store || this.#abort.signal.aborted) return 0;
    const to = log.head;
    if (!this.#ready(lane.reactor, to)) return 0;
    const round = this.#round(lane.cursor + 1, to);
    try {
      const events = await lane.reactor.react(round.context);
      if (events.length > 0) await round.context.record(events);
      if (to > lane.cursor) {
        await store.saveReactorCursor(lane.reactor.name, { logId: log.id, seq: to });
        lane.cursor = to;
      }
      lane.failing = undefined;
      return round.appended();
    } catch (err) {
      lane.failing = { message: describeError(err), at: clock.now().toISOString() };
      if (this.#abort.signal.aborted) return round.appended();
      throw err;
    }
  }

  /** The reactor is not backing off, and every projection it reads has folded the log up to `to`, unfaulted. */
  #ready(reactor: Reactor, to: number): boolean {
    if (reactor.holdsOff?.()) return false;
    const reads = new Set(reactor.reads ?? []);
    if (reads.size === 0) return true;
    return this.#options.runner.status().every((s) => !reads.has(s.name) || (!s.fault && !s.resetPending && s.seq >= to));
  }
}
