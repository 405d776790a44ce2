import { mkdirSync } from 'node:fs';
import PQueue from 'p-queue';
import type { Clock } from '../clock.js';
import { makePrivate } from '../log/private-files.js';
import type { EventCatalog } from '../events/catalog.js';
import { defaultCatalog } from '../events/default-catalog.js';
import { newEventId, systemClockMicros, wallMicros } from '../events/event-id.js';
import { EngramError, isEngramError } from '../errors.js';
import { EmptyEventLog } from '../log/empty-event-log.js';
import { LevelEventLog } from '../log/level-event-log.js';
import { finishInterruptedSwap, stampNewLog } from '../log/migrate-log.js';
import { logMigrations } from '../../migrations/index.js';
import type { EventLog } from '../log/event-log.js';
import type { Envelope } from '../events/envelope.js';
import { stampProducer } from '../events/stamp-producer.js';
import { LogRepaired } from '../events/log-events.js';
import type { EngramPaths } from '../paths.js';
import type { Projection } from '../projections/projector.js';
import { StateStore } from './state-store.js';
import { emptyIngestReport, ingestMemory, ingestSpool, type IngestOptions, type IngestReport } from '../ingest/ingest.js';
import { ProjectionRunner } from './projection-runner.js';
import { ReactorRunner } from './reactor-runner.js';
import type { Reactor } from './reactor.js';

/**
 * What runs on the log, built above the engine (see composition/open-engine.ts): the engine
 * knows projections and reactors only as interfaces, and carries the rest (`services`) for the
 * commands without looking inside.
 */
export interface EngineParts<S> {
  projections: readonly Projection[];
  reactors: readonly Reactor[];
  /** What commands need beside the log (the vectors, the distiller, settings); opaque to the engine. */
  services: S;
  /** Releases what the parts hold open (a model, a cache); called once, when the engine closes or fails to open. */
  close(): Promise<void>;
}

export interface EngineOptions<S> {
  paths: EngramPaths;
  clock: Clock;
  /**
   * `write` (the worker, `--drain`, `rebuild`): creates the log when there is none, and may
   * start projections over and advance them. `read` (`log dump`, `log stats`, `doctor`…): opens
   * what is there, creates nothing and changes no projection. Default `write`.
   */
  access?: 'read' | 'write';
  /** Spool ingest settings; see IngestOptions for each default. */
  ingest?: IngestOptions;
  /** Passed to the runner; tests use it to crash between a sink write and its checkpoint. */
  afterSinkApplied?: (projector: string, seq: number) => void;
  /** Which events the sync brought in from another machine (see ReactorContext.elsewhere). Default: none. */
  elsewhere?: (ids: readonly string[]) => Promise<boolean[]>;
  /**
   * Builds the projections and reactors, called once the log is held (a process that finds it
   * locked opens nothing else). `write` false: a reading engine, whose parts must write nothing.
   */
  parts(ctx: { write: boolean }): Promise<EngineParts<S>>;
}

/**
 * A checkpoint ahead of the log's head means the log lost its tail (see ProjectionRunner.aheadOfLog);
 * the lanes ahead already start over. The lost seqs are skipped, never reused: a memory's
 * provenance, a reactor's cursor or a note in a file may name them, and must not come to name
 * another event. The loss is recorded in the log itself, in the same synced append that makes
 * the new head durable.
 */
async function recordLostTail(log: LevelEventLog, ahead: number, clock: Clock): Promise<void> {
  if (ahead <= log.head) return;
  const kept = log.head;
  log.skipTo(ahead);
  await log.append(stampProducer([{
    id: `log-tail-lost:${log.id}:${kept + 1}-${ahead}`,
    type: LogRepaired.type,
    schemaVersion: LogRepaired.schemaVersion,
    ts: clock.now().toISOString(),
    session: '',
    project: '',
    data: {
      lostFrom: kept + 1,
      lostTo: ahead,
      kept,
      cause: 'tail-lost',
      reason: `a projection had folded events up to seq ${ahead}, but the log ends at ${kept}: the disk lost writes it had confirmed (a power cut?)`,
    },
  }]));
}

export interface TickReport extends IngestReport {
  /** Events the reactors appended. */
  reacted: number;
}

/**
 * The log with everything that works on it: ingest, the projection runner and the reactors.
 * The worker holds one for its lifetime; a CLI command opens one when no worker runs.
 */
export class Engine<S = unknown> {
  readonly log: EventLog;
  readonly catalog: EventCatalog;
  readonly runner: ProjectionRunner;
  readonly paths: EngramPaths;
  readonly clock: Clock;
  readonly #store: StateStore | null;
  readonly #options: EngineOptions<S>;
  // One ingest pass and one reactor round at a time: two never interleave their batches.
  readonly #ingesting = new PQueue({ concurrency: 1 });
  readonly #ingestMemory = ingestMemory();
  /** The reactors, each in its own lane from its own cursor. */
  readonly reactors: ReactorRunner;
  /** What the parts gave the commands (see EngineParts.services). */
  readonly services: S;
  readonly #parts: EngineParts<S>;

  private constructor(log: EventLog, catalog: EventCatalog, runner: ProjectionRunner, reactors: ReactorRunner, store: StateStore | null, options: EngineOptions<S>, parts: EngineParts<S>) {
    this.log = log;
    this.#store = store;
    this.catalog = catalog;
    this.runner = runner;
    this.paths = options.paths;
    this.clock = options.clock;
    this.#options = options;
    this.reactors = reactors;
    this.services = parts.services;
    this.#parts = parts;
  }

  /**
   * Opens the log (EngramError LOG_LOCKED if another process holds it) and the projections'
   * state, and loads their checkpoints.
   */
  static async open<S>(options: EngineOptions<S>): Promise<Engine<S>> {
    const { paths } = options;
    const write = (options.access ?? 'write') === 'write';
    let log: EventLog;
    if (write) {
      for (const dir of [paths.home, paths.spoolTmp, paths.spoolNew, paths.spoolRejected, paths.spoolLost, paths.logs, paths.views]) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
      }
      finishInterruptedSwap(paths.log);
      log = await LevelEventLog.open(paths.log);
      makePrivate(paths.home);
      makePrivate(paths.log);
    } else {
      log = await LevelEventLog.open(paths.log, { createIfMissing: false }).catch((err: unknown) => {
        if (isEngramError(err, 'LOG_MISSING')) return new EmptyEventLog();
        throw err;
      });
    }
    let store: StateStore | null = null;
    let parts: EngineParts<S> | undefined;
    try {
      if (write) await stampNewLog(log, logMigrations);
      const now = () => options.clock.now();
      store = write || log.head > 0
        ? await StateStore.open(paths.state, { now, createIfMissing: write }).catch((err: unknown) => {
          if (!write && isEngramError(err, 'LOG_MISSING')) return null;
          throw err;
        })
        : null;
      const catalog = defaultCatalog();
      parts = await options.parts({ write });
      const runner = new ProjectionRunner({
        log,
        catalog,
        store,
        projections: parts.projections,
        clock: options.clock,
        afterSinkApplied: options.afterSinkApplied,
      });
      try {
        await runner.start();
      } catch (err) {
        // A store that opens but cannot be read whole (a damaged table): name the remedy that
        // works, a whole rebuild aside (`--only` would read it).
        const damage = await store?.damage();
        if (damage === undefined) throw err;
        throw new EngramError('STATE_CORRUPT', `the projection state at ${paths.state} cannot be read whole (${damage}): run \`engram rebuild\`, which builds it whole aside from the log and swaps it in`, { cause: err });
      }
      if (write && log instanceof LevelEventLog) await recordLostTail(log, runner.aheadOfLog, options.clock);
      const reactors = new ReactorRunner({
        log,
        catalog,
        runner,
        // An engine that only reads runs no reactor.
        store: write ? store : null,
        paths,
        clock: options.clock,
        elsewhere: options.elsewhere,
        reactors: parts.reactors,
      });
      await reactors.start();
      return new Engine(log, catalog, runner, reactors, store, options, parts);
    } catch (err) {
      await parts?.close();
      await store?.close();
      await log.close();
      throw err;
    }
  }

  /**
   * One ingest at a time, so two passes never interleave their batches. The cutoff is read from
   * the system's wall clock, the clock hooks name their files by (see ingest.ts).
   */
  ingest(options: IngestOptions = {}): Promise<IngestReport> {
    return this.#ingesting.add(() =>
      ingestSpool(
        { log: this.log, catalog: this.catalog, paths: this.paths, nowMicros: systemClockMicros, memory: this.#ingestMemory },
        { ...this.#options.ingest, ...options },
      ),
    );
  }

  /**
   * Appends events a command or reactor made (each checked against its schema first, so a bad
   * one is refused before anything is written) and brings the projections up to them, so that
   * when this resolves the files already show what was recorded. Returns the events appended
   * (an id already in the log is stored once).
   */
  async record(events: readonly Envelope[]): Promise<number> {
    for (const event of events) this.catalog.read(event);
    const { appended } = await this.log.append(stampProducer(events));
    await this.runner.catchUp();
    return appended.length;
  }

  /** A fresh unique event id, for events that have no cause to derive one from. */
  newEventId(): string {
    return newEventId(wallMicros(), process.pid);
  }

  /** One round of every reactor whose projections are ready; the events they appended. */
  react(): Promise<number> {
    return this.reactors.round();
  }

  /**
   * Live mode, for the worker: sets every projection going on what is new and returns at once.
   * Each time all have caught up, the reactors not at work start a round; what they append sets
   * the projections going again.
   */
  keepUp(onError: (err: unknown) => void): void {
    this.runner.kick({
      onError,
      onCaughtUp: () => this.reactors.kick({ onError, onAppended: () => this.keepUp(onError) }),
    });
  }

  /** One round, waiting for all of it: ingest what the spool holds in order, project, react. */
  async tick(options: IngestOptions = {}): Promise<TickReport> {
    const ingested = await this.ingest(options);
    await this.runner.catchUp();
    const reacted = await this.react();
    if (reacted > 0) await this.runner.catchUp();
    return { ...ingested, reacted };
  }

  /**
   * Ingests, projects and reacts until nothing is left to do, and always ends: a round counts as
   * progress only if it moved something (a duplicate, a file that cannot be removed or one only a
   * newer engram reads does not), and files wait only on bounds ingest.ts documents (a hook still
   * writing, a name ahead of the clock). The report says what was left and why.
   */
  async drain(): Promise<TickReport> {
    const total: TickReport = { ...emptyIngestReport(), reacted: 0 };
    // A sink write that failed (a directory that was not writable) is tried again now, not after its wait.
    this.runner.retryFailedNow();
    for (;;) {
      const round = await this.tick();
      total.ingested += round.ingested;
      total.duplicates += round.duplicates;
      total.rejected += round.rejected;
      total.late += round.late;
      total.reacted += round.reacted;
      total.lost += round.lost;
      total.waiting = round.waiting;
      total.newer = round.newer;
      total.stuck = round.stuck;
      total.problems = round.problems;
      const progressed = round.ingested + round.rejected + round.reacted + round.lost > 0;
      if (!progressed && round.waiting === 0) return total;
      // Files behind a hook that is still writing, or named a little ahead: give them a moment.
      if (!progressed) await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Why the projection state cannot be read whole, or undefined (also when there is none). */
  stateDamage(): Promise<string | undefined> {
    return this.#store?.damage() ?? Promise.resolve(undefined);
  }

  /** Waits for the projections and reactors that keepUp set going to finish. */
  async settle(): Promise<void> {
    do {
      await this.runner.idle();
      await this.reactors.idle();
    } while (this.reactors.busy);
  }

  async close(): Promise<void> {
    this.reactors.abort();
    await this.reactors.idle();
    await this.#parts.close();
    await this.#store?.close();
    await this.log.close();
  }
}
