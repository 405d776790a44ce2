import PQueue from 'p-queue';
import { describeError } from '../errors.js';
import type { OutputRecord, Projection } from '../projections/projector.js';
import { EventFacts } from '../projections/event-facts.js';
import type { RowChange } from '../projections/row-change.js';
import { MemoryOwnershipLedger, type OwnershipLedger } from '../ownership/ownership-ledger.js';
import { ABSENT, RowCache } from './row-cache.js';
import { LOOK_AHEAD, RoundRows, RowNotLoaded } from './round-rows.js';
import type { CommittedRows, ProjectorStatus, Progress, RunnerOptions } from './runner-options.js';
import type { Checkpoint, ResetNote } from './state-store.js';
import { WindowReader, type WindowSlot } from './window-reader.js';
import { failuresAfter, recordFailures } from './row-failures.js';
import { sinkContext } from './sink-context.js';
import type { Lane } from './lane.js';

export type { CommittedRows, ProjectorStatus, Progress, RunnerOptions };

/** Beyond this many keys a lane stops tracking what it wrote and asks the store instead. */
const WRITTEN_LIMIT = 500_000;
/**
 * Events read from the log at a time. Small, so the events lanes share stay short-lived (a
 * rebuild holding tens of thousands of decoded events spends its time in the garbage
 * collector); a round, between commits, spans many chunks.
 */
const CHUNK = 2000;
/**
 * Runs every projector over the log. Each projection is a lane with its own queue, checkpoint,
 * rows and fault, reading the log at its own pace: a slow projection (embeddings) never holds
 * up a cheap one (files), and one whose events cannot be folded stops alone at its last good
 * event while the others go on.
 *
 * A round folds a window of events into a scratch set of changed rows over the committed
 * ones, hands them to the sink, then commits rows, output records, failures and checkpoint in
 * one batch. If anything in the round fails, the scratch set is dropped and the lane stands
 * where it was: the next round folds the same events again from the same rows, so a failure
 * is never counted twice.
 */
export class ProjectionRunner {
  readonly #options: RunnerOptions;
  readonly #lanes = new Map<string, Lane>();
  readonly #windows: WindowReader;
  /** Shared by the lanes, which fold the same event objects (the window's). */
  readonly #facts = new EventFacts();
  #aheadOfLog = 0;

  constructor(options: RunnerOptions) {
    this.#options = options;
    this.#windows = new WindowReader(options.log, options.catalog);
  }

  /**
   * Loads each projection's checkpoint and sees whether it can be trusted. One that cannot (it
   * does not decode, it belongs to another log, its projectorVersion changed, it is ahead of the
   * log) is marked to start over; that happens when the lane is next advanced, never here, so a
   * command that only reads leaves every projection as it found it.
   */
  async start(): Promise<void> {
    const { log, store } = this.#options;
    for (const projection of this.#options.projections) {
      const { projector } = projection;
      const laneStore = store ? await store.lane(projector.name) : null;
      const stored = laneStore ? await laneStore.checkpoint() : undefined;
      let resetPending: Lane['resetPending'];
      if (store?.recovered) resetPending = { reason: store.recovered.reason, note: true };
      else if (stored === 'unreadable') resetPending = { reason: 'its checkpoint could not be read', note: true };
      else if (stored === undefined) resetPending = { reason: 'it has never run', note: false };
      else if (stored.logId !== log.id) resetPending = { reason: `its checkpoint is of another log (${stored.logId || 'none'}, now ${log.id})`, note: true };
      else if (stored.projectorVersion !== projector.projectorVersion) {
        resetPending = { reason: `its projectorVersion changed from ${stored.projectorVersion} to ${projector.projectorVersion}`, note: true };
      } else if (stored.seq > log.head) {
        resetPending = { reason: `its checkpoint (seq ${stored.seq}) is ahead of the log (head ${log.head}): the log lost its tail`, note: true };
        this.#aheadOfLog = Math.max(this.#aheadOfLog, stored.seq);
      }
      const failures = laneStore ? await laneStore.failures() : [];
      this.#lanes.set(projector.name, {
        projection,
        name: projector.name,
        handlesType: this.#windows.typeMask(new Set(projector.handles)),
        store: laneStore,
        queue: new PQueue({ concurrency: 1 }),
        cache: new RowCache(this.#options.rowCacheSize ?? 20_000),
        checkpoint: resetPending || typeof stored !== 'object' ? this.#initial(projection) : stored,
        resetPending,
        lastReset: laneStore ? await laneStore.note() : undefined,
        fault: resetPending || !laneStore ? undefined : await laneStore.fault(),
        failing: undefined,
        failed: new Map(failures.map((failure) => [failure.key, failure])),
        retryDelay: this.#options.retryFailedMs ?? 30_000,
        retryAt: 0,
        pending: undefined,
        written: undefined,
      });
      if (laneStore && !resetPending) await laneStore.clearStale();
    }
  }

  /**
   * The highest checkpoint of this log found ahead of its head when started, else 0. A
   * checkpoint is only written after the events it covers were synced to the log, so one ahead
   * is proof the log lost its tail (the disk lost writes it had confirmed), and a floor for the
   * next seq: the lost seqs were seen, so they are never handed out again.
   */
  get aheadOfLog(): number {
    return this.#aheadOfLog;
  }

  get names(): string[] {
    return [...this.#lanes.keys()];
  }

  status(): ProjectorStatus[] {
    return [...this.#lanes.values()].map((lane) => ({
      name: lane.name,
      projectorVersion: lane.projection.projector.projectorVersion,
      seq: lane.checkpoint.seq,
      fault: lane.fault,
      resetPending: lane.resetPending?.note ? lane.resetPending.reason : undefined,
      lastReset: lane.lastReset,
      failing: lane.failing,
      failedRows: [...lane.failed.values()],
    }));
  }

  /** A projection's committed rows: what its outputs on disk already show. */
  rowsOf(name: string): CommittedRows {
    const lane = this.#lane(name);
    return {
      get: async (key) => {
        if (!lane.store || lane.resetPending) return undefined;
        const cached = lane.cache.get(key);
        if (cached !== undefined) return cached === ABSENT ? undefined : cached;
        const [row] = await lane.store.rows([key]);
        return row;
      },
      entries: (prefix, options) => (lane.store && !lane.resetPending ? lane.store.entries(prefix, options) : (async function* () {})()),
    };
  }

  /** Where a projection's sink put its outputs (absolute paths), and in what state it left each. */
  async outputsOf(name: string): Promise<Array<[string, OutputRecord]>> {
    const lane = this.#lane(name);
    const { locate } = lane.projection.sink;
    if (!lane.store || lane.resetPending || !locate) return [];
    return (await lane.store.allOutputs()).map(([path, record]) => [locate.call(lane.projection.sink, path), record]);
  }

  /** Brings every projection (not stopped by a fault) up to the log's head. */
  async catchUp(): Promise<void> {
    // Every lane finishes (or fails) before this returns: no work is left running behind an error.
    const results = await Promise.allSettled([...this.#lanes.values()].map((lane) => this.#schedule(lane)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Starts every projection on whatever is new, without waiting for any of them: the live mode,
   * where a slow projection must not hold back the next events of a fast one. `onCaughtUp` runs
   * each time a lane finishes and all of them have caught up; `onError` gets a failed round, to
   * be tried again by the next kick.
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

  /** Resolves once no projection has work running or queued. */
  async idle(): Promise<void> {
    await Promise.all([...this.#lanes.values()].map((lane) => lane.queue.onIdle()));
  }

  /** True when every projection without a fault has folded the whole log. */
  get caughtUp(): boolean {
    const head = this.#options.log.head;
    return [...this.#lanes.values()].every((lane) => lane.fault !== undefined || (!lane.resetPending && lane.checkpoint.seq >= head));
  }

  /**
   * Drops the named projections' rows and outputs (all of them by default) and replays the log
   * into them, each lane at its own pace; resolves when all have reached the head.
   */
  async rebuild(options: { only?: readonly string[]; onProgress?: Progress } = {}): Promise<void> {
    const lanes = this.#select(options.only);
    const head = this.#options.log.head;
    const progress = this.#progress(lanes, head, options.onProgress);
    await Promise.all(
      lanes.map((lane) =>
        lane.queue.add(async () => {
          lane.resetPending = undefined;
          await this.#reset(lane, undefined);
          await this.#advance(lane, head, this.#options.rebuildWindowSize ?? 100_000, progress);
        }),
      ),
    );
    options.onProgress?.(head, head);
  }

  /** Folds the log up to `to` (inclusive) into every projection: for replays into a fresh directory. */
  async runUntil(to: number, onProgress?: Progress): Promise<void> {
    const lanes = [...this.#lanes.values()];
    const end = Math.min(to, this.#options.log.head);
    const progress = this.#progress(lanes, end, onProgress);
    await Promise.all(lanes.map((lane) => lane.queue.add(() => this.#advance(lane, end, this.#options.rebuildWindowSize ?? 100_000, progress))));
    onProgress?.(end, end);
  }

  #progress(lanes: Lane[], total: number, onProgress: Progress | undefined): (() => void) | undefined {
    if (!onProgress) return undefined;
    return () => onProgress(Math.min(...lanes.map((lane) => lane.checkpoint.seq)), total);
  }

  #lane(name: string): Lane {
    const lane = this.#lanes.get(name);
    if (!lane) throw new Error(`no projection named ${name}; there are ${this.names.join(', ')}`);
    return lane;
  }

  #select(only: readonly string[] | undefined): Lane[] {
    if (!only || only.length === 0) return [...this.#lanes.values()];
    return only.map((name) => this.#lane(name));
  }

  #initial(projection: Projection<unknown>): Checkpoint {
    return { logId: this.#options.log.id, projectorVersion: projection.projector.projectorVersion, seq: 0 };
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
      if (!lane.fault) await this.#advance(lane, this.#options.log.head, this.#options.windowSize ?? 2000);
    });
    if (!started) lane.pending = task;
    return task;
  }

  async #advance(lane: Lane, to: number, windowSize: number, onWindow?: () => void): Promise<void> {
    if (!lane.store) throw new Error(`${lane.name} has no state store: this engine only reads`);
    try {
      if (lane.resetPending) {
        const { reason, note } = lane.resetPending;
        await this.#reset(lane, note ? { reason, at: this.#now() } : undefined);
        lane.resetPending = undefined;
      }
      await this.#retryFailed(lane);
      while (!lane.fault && lane.checkpoint.seq < to) {
        if (!(await this.#round(lane, Math.min(to, lane.checkpoint.seq + windowSize)))) break;
        onWindow?.();
      }
      lane.failing = undefined;
    } catch (err) {
      const at = this.#now();
      lane.failing = { message: describeError(err), since: lane.failing?.since ?? at, at };
      throw err;
    }
  }

  /** Starts a lane over: the sink drops what it owns, the store moves to an empty generation. */
  async #reset(lane: Lane, note: ResetNote | undefined): Promise<void> {
    await lane.projection.sink.reset();
    const fresh = lane.checkpoint.seq === 0 && lane.failed.size === 0 && !lane.fault && (await lane.store!.checkpoint()) === undefined;
    if (!fresh || note) await lane.store!.reset(note);
    lane.lastReset = note;
    lane.checkpoint = this.#initial(lane.projection);
    lane.fault = undefined;
    lane.failing = undefined;
    lane.failed.clear();
    lane.cache.clear();
    lane.written = { rows: new Set(), outputs: new Set() };
  }

  /**
   * One round: folds the events after the checkpoint up to `end` (read in chunks that the lanes
   * share) into a scratch set of rows, then commits it. False when the log had nothing to read.
   */
  async #round(lane: Lane, end: number): Promise<boolean> {
    const { projector } = lane.projection;
    // The round's changes over the committed rows (dropped whole if the round fails), and the
    // committed rows it loaded.
    const rows = new RoundRows(lane, this.#options.catalog, this.#facts);
    const { changed } = rows;
    let seq = lane.checkpoint.seq;
    let failed: { slot: WindowSlot; error: unknown } | undefined;
    while (seq < end && !failed) {
      // The read covers seq + 1..last, where its window (aligned on CHUNK) or the log ends.
      const last = Math.min(Math.floor(seq / CHUNK) * CHUNK + CHUNK, end);
      const slots = await this.#windows.read(seq + 1, end, CHUNK);
      // Slots before this index were already looked over for the rows they will ask for.
      let lookedAheadTo = 0;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        // A seq a lost tail left unused (see LogRepaired) holds no event.
        if (slot === undefined) continue;
        if (lane.handlesType[slot.typeId]) {
          let changes: readonly RowChange<unknown>[];
          try {
            const event = slot.event(this.#options.catalog);
            // Synchronous unless a row must be loaded first: an await per event would cost a
            // rebuild more than the folding itself.
            const folded = rows.fold(event);
            if (folded instanceof RowNotLoaded && i >= lookedAheadTo) {
              lookedAheadTo = i + LOOK_AHEAD;
              await rows.loadAhead(slots.slice(i, lookedAheadTo), folded.key);
            }
            changes = folded instanceof RowNotLoaded ? await rows.foldLoading(event, folded) : folded;
          } catch (error) {
            failed = { slot, error };
            break;
          }
          for (const change of changes) changed.set(change.key, change.row);
        }
        seq = slot.raw.seq;
      }
      if (!failed) seq = last;
    }
    if (seq === lane.checkpoint.seq && !failed) return false;
    // Even when an event could not be folded, those before it count: the lane stops right there.
    await this.#commit(lane, changed, seq);
    if (failed) {
      lane.fault = {
        projector: projector.name,
        seq: failed.slot.raw.seq,
        eventId: failed.slot.raw.id,
        eventType: failed.slot.raw.type,
        message: describeError(failed.error),
        at: this.#now(),
      };
      await lane.store!.saveFault(lane.fault);
    }
    return true;
  }

  async #commit(lane: Lane, changed: Map<string, unknown>, seq: number): Promise<void> {
    if (changed.size === 0 && seq === lane.checkpoint.seq) return;
    const changes = [...changed].map(([key, row]) => ({ key, row }));
    const report = changes.length > 0 ? await lane.projection.sink.apply(changes, sinkContext(lane, this.ownership, changed)) : { outputs: [], failed: [] };
    this.#options.afterSinkApplied?.(lane.name, seq);
    const failures = failuresAfter(lane.failed, changed.keys(), report, seq, this.#now());
    const checkpoint: Checkpoint = { logId: this.#options.log.id, projectorVersion: lane.projection.projector.projectorVersion, seq };
    await lane.store!.commit({ rows: changed, outputs: report.outputs, failures, checkpoint });
    lane.checkpoint = checkpoint;
    for (const [key, row] of changed) lane.cache.set(key, row);
    recordFailures(lane.failed, failures);
    if (lane.written) {
      for (const key of changed.keys()) lane.written.rows.add(key);
      for (const [path] of report.outputs) lane.written.outputs.add(path);
      if (lane.written.rows.size + lane.written.outputs.size > WRITTEN_LIMIT) lane.written = undefined;
    }
  }

  /**
   * Rows whose outputs failed are tried on the next round whatever their wait: `engram worker
   * --drain` asks this, so that once a directory is back its files are what the log says, with
   * no further event needed.
   */
  retryFailedNow(): void {
    for (const lane of this.#lanes.values()) lane.retryAt = 0;
  }

  /** Rows whose outputs failed are made again after a wait that grows while they keep failing. */
  async #retryFailed(lane: Lane): Promise<void> {
    if (lane.failed.size === 0 || performance.now() < lane.retryAt) return;
    const keys = [...lane.failed.keys()];
    const rows = await lane.store!.rows(keys);
    const report = await lane.projection.sink.apply(keys.map((key, i) => ({ key, row: rows[i] ?? null })), sinkContext(lane, this.ownership, new Map()));
    const failures = failuresAfter(lane.failed, keys, report, lane.checkpoint.seq, this.#now());
    await lane.store!.commit({ rows: new Map(), outputs: report.outputs, failures });
    recordFailures(lane.failed, failures);
    const base = this.#options.retryFailedMs ?? 30_000;
    lane.retryDelay = lane.failed.size > 0 ? Math.min(lane.retryDelay * 2, 10 * 60_000) : base;
    lane.retryAt = performance.now() + (lane.failed.size > 0 ? lane.retryDelay : 0);
  }

  /** Whose each file outside ENGRAM_HOME is (src/ownership). */
  get ownership(): OwnershipLedger {
    return this.#options.store?.ownership ?? this.#readOnlyLedger;
  }

  readonly #readOnlyLedger = new MemoryOwnershipLedger();

  #now(): string {
    return this.#options.clock.now().toISOString();
  }
}
