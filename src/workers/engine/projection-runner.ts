import PQueue from 'p-queue';
import type { Clock } from '../../clock.js';
import { describeError } from '../../errors.js';
import type { DomainEvent, EventCatalog } from '../../events/catalog.js';
import type { StoredEnvelope } from '../../events/envelope.js';
import type { EventLog } from '../../log/event-log.js';
import type { Change, Projection } from '../../projections/projector.js';
import type { Checkpoint, CheckpointStore, ProjectorFault } from './checkpoint-store.js';

export interface RunnerOptions {
  log: EventLog;
  catalog: EventCatalog;
  store: CheckpointStore;
  projections: readonly Projection[];
  clock: Clock;
  /**
   * Events folded between two sink flushes and checkpoint saves while keeping up with the log.
   * Smaller means less to redo after a crash. Default 2000.
   */
  windowSize?: number;
  /** The same during a rebuild or replay, where fewer flushes make it faster. Default 50,000. */
  rebuildWindowSize?: number;
  /**
   * Called between a sink's write and the checkpoint's save; tests use it to crash a worker at
   * exactly that instant. Default: nothing.
   */
  afterSinkApplied?: (projector: string, seq: number) => void;
}

export interface ProjectorStatus {
  name: string;
  projectorVersion: number;
  seq: number;
  fault: ProjectorFault | undefined;
}

export type Progress = (done: number, total: number) => void;

interface Lane {
  projection: Projection<unknown, Change>;
  handles: Set<string>;
  // One task at a time per projector: its events are folded strictly in log order.
  queue: PQueue;
  checkpoint: Checkpoint;
  fault: ProjectorFault | undefined;
  pending: Promise<void> | undefined;
}

/**
 * Runs every projector over the log. Each has its own queue, checkpoint and fault, so a slow
 * projector (embeddings) never holds up a cheap one (files), and one that throws stops alone
 * at its last good event while the others go on.
 */
export class ProjectionRunner {
  readonly #options: RunnerOptions;
  readonly #lanes = new Map<string, Lane>();

  constructor(options: RunnerOptions) {
    this.#options = options;
  }

  /** Loads checkpoints; a projector whose projectorVersion changed is reset to rebuild alone. */
  async start(): Promise<void> {
    for (const projection of this.#options.projections) {
      const { projector } = projection;
      let checkpoint = await this.#options.store.load(projector.name);
      let fault = await this.#options.store.loadFault(projector.name);
      if (checkpoint && checkpoint.projectorVersion !== projector.projectorVersion) {
        await projection.sink.reset();
        await this.#options.store.drop(projector.name);
        checkpoint = undefined;
        fault = undefined;
      }
      this.#lanes.set(projector.name, {
        projection,
        handles: new Set(projector.handles),
        queue: new PQueue({ concurrency: 1 }),
        checkpoint: checkpoint ?? initial(projection),
        fault,
        pending: undefined,
      });
    }
  }

  get names(): string[] {
    return [...this.#lanes.keys()];
  }

  status(): ProjectorStatus[] {
    return [...this.#lanes.values()].map((lane) => ({
      name: lane.projection.projector.name,
      projectorVersion: lane.projection.projector.projectorVersion,
      seq: lane.checkpoint.seq,
      fault: lane.fault,
    }));
  }

  /** A projector's current state, for reactors and queries. Treat it as read-only. */
  stateOf<S>(name: string): S | undefined {
    return this.#lanes.get(name)?.checkpoint.state as S | undefined;
  }

  /** Brings every projector (not stopped by a fault) up to the log's head. */
  async catchUp(): Promise<void> {
    // Every lane finishes (or fails) before this returns: no work is left running behind an error.
    const results = await Promise.allSettled([...this.#lanes.values()].map((lane) => this.#schedule(lane)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Starts every projector on whatever is new, without waiting for any of them: the live mode,
   * where a slow projector must not hold back the next events of a fast one. `onCaughtUp` runs
   * each time a projector finishes and all of them have caught up; `onError` gets a failure
   * that is not a fault of evolve (a full disk), to be retried by the next kick.
   */
  kick(callbacks: { onCaughtUp(): void; onError(err: unknown): void }): void {
    for (const lane of this.#lanes.values()) {
      this.#schedule(lane).then(
        () => {
          if (this.caughtUp) callbacks.onCaughtUp();
        },
        (err: unknown) => callbacks.onError(err),
      );
    }
  }

  /** Resolves once no projector has work running or queued. */
  async idle(): Promise<void> {
    await Promise.all([...this.#lanes.values()].map((lane) => lane.queue.onIdle()));
  }

  /** True when every projector without a fault has folded the whole log. */
  get caughtUp(): boolean {
    return [...this.#lanes.values()].every((lane) => lane.fault !== undefined || lane.checkpoint.seq >= this.#options.log.head);
  }

  /**
   * Drops the named projectors' state and outputs (all of them by default) and replays the log
   * into them in one shared pass, each event decoded once.
   */
  async rebuild(options: { only?: readonly string[]; onProgress?: Progress } = {}): Promise<void> {
    const lanes = this.#select(options.only);
    await this.#holdingAll(lanes, async () => {
      for (const lane of lanes) {
        await lane.projection.sink.reset();
        await this.#options.store.drop(lane.projection.projector.name);
        lane.checkpoint = initial(lane.projection);
        lane.fault = undefined;
      }
      await this.#advance(lanes, this.#options.log.head, this.#options.rebuildWindowSize ?? 50_000, options.onProgress);
    });
  }

  /** Folds the log up to `to` (inclusive) into every projector: for replays into a fresh directory. */
  async runUntil(to: number, onProgress?: Progress): Promise<void> {
    const lanes = [...this.#lanes.values()];
    await this.#holdingAll(lanes, () =>
      this.#advance(lanes, Math.min(to, this.#options.log.head), this.#options.rebuildWindowSize ?? 50_000, onProgress),
    );
  }

  #select(only: readonly string[] | undefined): Lane[] {
    if (!only || only.length === 0) return [...this.#lanes.values()];
    return only.map((name) => {
      const lane = this.#lanes.get(name);
      if (!lane) throw new Error(`no projector named ${name}; there are ${this.names.join(', ')}`);
      return lane;
    });
  }

  #schedule(lane: Lane): Promise<void> {
    if (lane.fault) return Promise.resolve();
    // A catch-up already queued will read to the head as it is when it starts: join it.
    if (lane.pending) return lane.pending;
    // p-queue may start the task inside add(); once started it no longer counts as queued.
    let started = false;
    const task = lane.queue.add(async () => {
      started = true;
      lane.pending = undefined;
      if (!lane.fault) await this.#advance([lane], this.#options.log.head, this.#options.windowSize ?? 2000);
    });
    if (!started) lane.pending = task;
    return task;
  }

  // Runs `work` while it alone holds the queues of all these lanes.
  async #holdingAll(lanes: Lane[], work: () => Promise<void>): Promise<void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = lanes.map(
      (lane) => new Promise<void>((entered) => void lane.queue.add(() => (entered(), released))),
    );
    await Promise.all(held);
    try {
      await work();
    } finally {
      release();
    }
  }

  async #advance(lanes: Lane[], to: number, windowSize: number, onProgress?: Progress): Promise<void> {
    const active = lanes.filter((lane) => !lane.fault && lane.checkpoint.seq < to);
    if (active.length === 0) return;
    const from = Math.min(...active.map((lane) => lane.checkpoint.seq)) + 1;
    let window: StoredEnvelope[] = [];
    for await (const batch of this.#options.log.read({ from, to })) {
      window.push(...batch);
      if (window.length >= windowSize) {
        await this.#foldWindow(active, window);
        onProgress?.(window[window.length - 1]!.seq, to);
        window = [];
      }
    }
    if (window.length > 0) await this.#foldWindow(active, window);
    onProgress?.(to, to);
  }

  async #foldWindow(lanes: Lane[], window: StoredEnvelope[]): Promise<void> {
    // Each event is checked and upcast once, however many projectors read it.
    const decoded: Array<DomainEvent | Error | undefined> = new Array(window.length);
    const first = window[0]!.seq;
    const read = (raw: StoredEnvelope): DomainEvent => {
      const at = raw.seq - first;
      let event = decoded[at];
      if (event === undefined) {
        try {
          event = this.#options.catalog.readStored(raw);
        } catch (err) {
          event = err instanceof Error ? err : new Error(String(err));
        }
        decoded[at] = event;
      }
      if (event instanceof Error) throw event;
      return event;
    };
    await Promise.all(lanes.filter((lane) => !lane.fault).map((lane) => this.#foldLane(lane, window, read)));
  }

  async #foldLane(lane: Lane, window: StoredEnvelope[], read: (raw: StoredEnvelope) => DomainEvent): Promise<void> {
    const { projector, sink } = lane.projection;
    const start = lane.checkpoint;
    let state = start.state;
    let seq = start.seq;
    const changes = new Map<string, Change>();
    let failed: { raw: StoredEnvelope; error: unknown } | undefined;
    for (const raw of window) {
      if (raw.seq <= seq) continue;
      if (lane.handles.has(raw.type)) {
        try {
          const next = projector.evolve(state, read(raw));
          state = next.state;
          for (const change of next.changes) changes.set(change.key, change);
        } catch (error) {
          failed = { raw, error };
          break;
        }
      }
      seq = raw.seq;
    }
    if (failed) {
      // evolve may have half-updated the state it was given: start again from the saved
      // checkpoint and fold only the events before the one that threw.
      const good = window.filter((raw) => raw.seq > start.seq && raw.seq < failed.raw.seq);
      const saved = (await this.#options.store.load(projector.name)) ?? initial(lane.projection);
      lane.checkpoint = saved;
      if (good.length > 0) await this.#foldLane(lane, good, read);
      lane.fault = {
        projector: projector.name,
        seq: failed.raw.seq,
        eventId: failed.raw.id,
        eventType: failed.raw.type,
        message: describeError(failed.error),
        at: this.#options.clock.now().toISOString(),
      };
      await this.#options.store.saveFault(lane.fault);
      return;
    }
    await sink.apply([...changes.values()]);
    this.#options.afterSinkApplied?.(projector.name, seq);
    const checkpoint: Checkpoint = { projectorVersion: projector.projectorVersion, seq, state };
    await this.#options.store.save(projector.name, checkpoint);
    lane.checkpoint = checkpoint;
  }
}

function initial(projection: Projection<unknown, Change>): Checkpoint {
  return { projectorVersion: projection.projector.projectorVersion, seq: 0, state: projection.projector.initialState() };
}
