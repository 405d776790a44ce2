import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import * as z from 'zod/mini';
import { EngramError } from '../errors.js';
import type { OutputRecord } from '../projections/projector.js';
import { LevelOwnershipLedger, type LedgerLevel, type OwnershipLedger } from '../ownership/ownership-ledger.js';

/** How far a projection's committed rows go, and of which log. */
export interface Checkpoint {
  /** The id of the log these rows were folded from (EventLog.id). */
  logId: string;
  projectorVersion: number;
  /** The last seq folded; 0 before the first event. */
  seq: number;
}

/** Why a projector stopped at an event, kept until a rebuild or a new projectorVersion clears it. */
export interface ProjectorFault {
  projector: string;
  /** The event it could not fold; the checkpoint stands at the event before. */
  seq: number;
  eventId: string;
  eventType: string;
  message: string;
  at: string;
}

/** A row whose outputs could not be made, retried until they are. */
export interface RowFailure {
  key: string;
  message: string;
  /** The seq of the round that first failed it. */
  seq: number;
  at: string;
}

/** Why a projection was last started over from nothing, for `engram doctor`. */
export interface ResetNote {
  reason: string;
  at: string;
}

/** Everything one round commits for one projection, written in one LevelDB batch. */
export interface LaneCommit {
  rows: ReadonlyMap<string, unknown>;
  outputs: ReadonlyArray<[string, OutputRecord | null]>;
  failures: ReadonlyArray<[string, RowFailure | null]>;
  checkpoint?: Checkpoint;
}

const checkpointShape = z.object({ logId: z.string(), projectorVersion: z.int(), seq: z.int().check(z.nonnegative()) });
const faultShape = z.object({
  projector: z.string(), seq: z.int(), eventId: z.string(), eventType: z.string(), message: z.string(), at: z.string(),
});
const outputShape = z.object({ key: z.string(), hash: z.string(), state: z.enum(['written', 'edited', 'foreign']) });
const failureShape = z.object({ key: z.string(), message: z.string(), seq: z.int(), at: z.string() });
const noteShape = z.object({ reason: z.string(), at: z.string() });
const laneShape = z.object({ generation: z.int().check(z.nonnegative()) });
const cursorShape = z.object({ logId: z.string(), seq: z.int().check(z.nonnegative()) });

// Key spaces inside a lane's sublevel.
const CHECKPOINT = 'c';
const FAULT = 'f';
const NOTE = 'n';
const ROW = 'r:';
const OUTPUT = 'o:';
const FAILURE = 'x:';

type Bytes = Uint8Array;

/** Rows an entries() read asks LevelDB for first, and at most at a time after (see LaneStore.entries). */
const ENTRIES_FIRST = 16;
const ENTRIES_MOST = 1024;

/** The sublevels a rebuild aside carries over from the old store: they are not projections. */
const CARRIED_OVER = ['reactors', 'owned'] as const;

function sublevelOf(db: Level<string, Bytes>, name: string) {
  return db.sublevel<string, Bytes>(name, { keyEncoding: 'utf8', valueEncoding: 'view' });
}
type Sublevel = ReturnType<typeof sublevelOf>;

/**
 * Projection state, by row, in its own LevelDB (`<home>/state`): for each projection its rows,
 * its checkpoint, what its sink wrote where, and its failures, all written in one batch per
 * round, so the state and the checkpoint can never disagree and a round costs what it changed.
 *
 * Each projection lives in a generation of its own; starting it over is one atomic write that
 * moves it to the next, empty, generation (the old one is cleared behind it), so a crash in the
 * middle of a reset can never leave old rows under a new checkpoint.
 */
export class StateStore {
  readonly #db: Level<string, Bytes>;
  // structuredClone keeps Maps and Sets as they are: rows are not JSON-shaped.
  readonly #packr = new Packr({ structuredClone: true });
  readonly #now: () => Date;
  /** Set when the store could not be opened and was moved aside: every projection starts over. */
  readonly recovered: ResetNote | undefined;

  /**
   * Whose each file outside ENGRAM_HOME is (src/ownership): its own part of the store, outside
   * every lane's generations, so no reset of a projection forgets it.
   */
  readonly ownership: OwnershipLedger;

  private constructor(db: Level<string, Bytes>, now: () => Date, recovered: ResetNote | undefined) {
    this.#db = db;
    this.ownership = new LevelOwnershipLedger(sublevelOf(db, 'owned') as unknown as LedgerLevel);
    this.#now = now;
    this.recovered = recovered;
  }

  /**
   * Opens (creating) the store. A store that does not open (corrupt files) is moved aside, never
   * deleted, and a new one is made: projections are derived data and rebuild from the log.
   */
  static async open(dir: string, options: { now: () => Date; createIfMissing?: boolean }): Promise<StateStore> {
    const createIfMissing = options.createIfMissing ?? true;
    // Checked first: LevelDB makes the directory even when told not to create the database.
    if (!createIfMissing && !existsSync(join(dir, 'CURRENT'))) throw new EngramError('LOG_MISSING', `there is no projection state at ${dir}`);
    const tryOpen = async (): Promise<Level<string, Bytes>> => {
      const db = new Level<string, Bytes>(dir, { keyEncoding: 'utf8', valueEncoding: 'view', createIfMissing });
      await db.open();
      return db;
    };
    try {
      return new StateStore(await tryOpen(), options.now, undefined);
    } catch (cause) {
      const code = (cause as { cause?: { code?: string } }).cause?.code;
      if (code === 'LEVEL_LOCKED') throw new EngramError('LOG_LOCKED', `the projection state at ${dir} is held by another process`, { cause });
      if (!createIfMissing) throw new EngramError('STATE_CORRUPT', `the projection state at ${dir} does not open`, { cause });
      const at = options.now().toISOString();
      const aside = `${dir}.unreadable-${at.replace(/[-:.]/g, '')}`;
      renameSync(dir, aside);
      const message = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
      return new StateStore(await tryOpen(), options.now, { reason: `the projection state did not open (${message}); it was moved to ${aside} and every projection rebuilt`, at });
    }
  }

  /** Where a reactor stopped: the last seq it reacted to, of which log. */
  async reactorCursor(name: string): Promise<{ logId: string; seq: number } | undefined> {
    const bytes = await sublevelOf(this.#db, 'reactors').get(name);
    if (bytes === undefined) return undefined;
    const parsed = cursorShape.safeParse(this.#decode(bytes));
    return parsed.success ? parsed.data : undefined;
  }

  async saveReactorCursor(name: string, cursor: { logId: string; seq: number }): Promise<void> {
    await sublevelOf(this.#db, 'reactors').put(name, this.#packr.pack(cursor));
  }

  /** One projection's part of the store, at its current generation. */
  async lane(name: string): Promise<LaneStore> {
    const lanes = sublevelOf(this.#db, 'lanes');
    const stored = await lanes.get(name);
    let generation = 0;
    if (stored !== undefined) {
      const parsed = laneShape.safeParse(this.#decode(stored));
      // An unreadable generation marker: move past any generation it could have named.
      generation = parsed.success ? parsed.data.generation : this.#now().getTime();
    }
    return new LaneStore(this.#db, lanes, name, generation, this.#packr);
  }

  close(): Promise<void> {
    return this.#db.close();
  }

  /** Reads every entry once: why the store cannot be read whole, or undefined when it can. */
  async damage(): Promise<string | undefined> {
    try {
      for await (const _entry of this.#db.iterator()) void _entry;
      return undefined;
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      return cause instanceof Error ? cause.message : err instanceof Error ? err.message : String(err);
    }
  }

  /**
   * Copies the parts of the store at `from` that are not projections (the reactors' cursors and
   * the ownership ledger) into the store at `to` (both closed; `to` is created when missing), so
   * a store rebuilt aside neither makes every reactor start over nor forgets which files outside
   * ENGRAM_HOME engram wrote. Returns false, copying nothing, when `from` cannot be read: the
   * reactors then start over, which their derived event ids make safe, and a file with no record
   * is engram's only when it equals a fresh render (src/ownership).
   */
  static async copyCarriedOver(from: string, to: string): Promise<boolean> {
    if (!existsSync(join(from, 'CURRENT'))) return false;
    const source = new Level<string, Bytes>(from, { keyEncoding: 'utf8', valueEncoding: 'view', createIfMissing: false });
    const target = new Level<string, Bytes>(to, { keyEncoding: 'utf8', valueEncoding: 'view' });
    try {
      await source.open();
      await target.open();
      const entries: Array<[string, Bytes]> = [];
      for (const name of CARRIED_OVER) {
        for await (const entry of source.iterator({ gte: `!${name}!`, lt: `!${name}"` })) entries.push(entry);
      }
      await target.batch(entries.map(([key, value]) => ({ type: 'put' as const, key, value })), { sync: true });
      return true;
    } catch {
      return false;
    } finally {
      await source.close().catch(() => undefined);
      await target.close().catch(() => undefined);
    }
  }

  /**
   * For a store built in another directory: every output record naming a file under `from`
   * is moved to name the same file under `to`, so that once the directories are swapped the
   * records name the files as they then are. The store must be this process's alone.
   */
  static async moveOutputPaths(dir: string, from: string, to: string): Promise<void> {
    const db = new Level<string, Bytes>(dir, { keyEncoding: 'utf8', valueEncoding: 'view', createIfMissing: false });
    await db.open();
    try {
      const marker = `!${OUTPUT}${from}`;
      const batch = db.batch();
      for await (const [key, value] of db.iterator()) {
        const at = key.indexOf(marker);
        if (at < 0) continue;
        batch.del(key);
        batch.put(`${key.slice(0, at)}!${OUTPUT}${to}${key.slice(at + marker.length)}`, value);
      }
      await batch.write({ sync: true });
    } finally {
      await db.close();
    }
  }

  #decode(bytes: Bytes): unknown {
    try {
      return this.#packr.unpack(bytes);
    } catch {
      return undefined;
    }
  }
}

/** One projection's rows, checkpoint, outputs, failures, fault and reset note. */
export class LaneStore {
  readonly #db: Level<string, Bytes>;
  readonly #lanes: Sublevel;
  readonly #name: string;
  readonly #packr: Packr;
  #generation: number;
  #sub: Sublevel;

  constructor(db: Level<string, Bytes>, lanes: Sublevel, name: string, generation: number, packr: Packr) {
    this.#db = db;
    this.#lanes = lanes;
    this.#name = name;
    this.#generation = generation;
    this.#packr = packr;
    this.#sub = this.#sublevel(generation);
  }

  /** The checkpoint; `unreadable` when one is stored but does not decode or validate. */
  async checkpoint(): Promise<Checkpoint | 'unreadable' | undefined> {
    const bytes = await this.#sub.get(CHECKPOINT);
    if (bytes === undefined) return undefined;
    const parsed = checkpointShape.safeParse(this.#decode(bytes));
    return parsed.success ? parsed.data : 'unreadable';
  }

  async rows(keys: readonly string[]): Promise<unknown[]> {
    if (keys.length === 0) return [];
    const values = await this.#sub.getMany(keys.map((key) => ROW + key));
    return values.map((bytes) => (bytes === undefined ? undefined : this.#decodeRow(bytes)));
  }

  /** Rows whose key starts with `prefix`, in key order (`reverse`: last key first; default false). */
  async *entries(prefix = '', options: { reverse?: boolean } = {}): AsyncIterable<[string, unknown]> {
    const iterator = this.#sub.iterator({ gte: ROW + prefix, lt: `${ROW}${prefix}\uffff`, reverse: options.reverse ?? false });
    try {
      // In chunks that grow, so a reader that stops early reads little past where it stopped, and
      // one that reads on awaits once a chunk rather than through every layer once a row (a
      // directory's MEMORY.md reads its 200 ranked rows on every proposal).
      for (let size = ENTRIES_FIRST; ; size = Math.min(size * 2, ENTRIES_MOST)) {
        // Fewer than asked is not the end (LevelDB also stops a chunk at a byte limit); none is.
        const chunk = await iterator.nextv(size);
        if (chunk.length === 0) break;
        for (const [key, bytes] of chunk) yield [key.slice(ROW.length), this.#decodeRow(bytes)];
      }
    } finally {
      await iterator.close();
    }
  }

  async outputs(paths: readonly string[]): Promise<Array<OutputRecord | undefined>> {
    if (paths.length === 0) return [];
    const values = await this.#sub.getMany(paths.map((path) => OUTPUT + path));
    return values.map((bytes) => {
      if (bytes === undefined) return undefined;
      const parsed = outputShape.safeParse(this.#decode(bytes));
      return parsed.success ? parsed.data : undefined;
    });
  }

  async allOutputs(): Promise<Array<[string, OutputRecord]>> {
    const found: Array<[string, OutputRecord]> = [];
    for await (const [key, bytes] of this.#sub.iterator({ gte: OUTPUT, lt: `${OUTPUT}\uffff` })) {
      const parsed = outputShape.safeParse(this.#decode(bytes));
      if (parsed.success) found.push([key.slice(OUTPUT.length), parsed.data]);
    }
    return found;
  }

  async failures(): Promise<RowFailure[]> {
    const found: RowFailure[] = [];
    for await (const bytes of this.#sub.values({ gte: FAILURE, lt: `${FAILURE}\uffff` })) {
      const parsed = failureShape.safeParse(this.#decode(bytes));
      if (parsed.success) found.push(parsed.data);
    }
    return found;
  }

  /** Rows, outputs, failures and (when given) the checkpoint, all or nothing. */
  async commit(commit: LaneCommit): Promise<void> {
    const batch = this.#sub.batch();
    for (const [key, row] of commit.rows) {
      if (row === null || row === undefined) batch.del(ROW + key);
      else batch.put(ROW + key, this.#packr.pack(row));
    }
    for (const [path, record] of commit.outputs) {
      if (record === null) batch.del(OUTPUT + path);
      else batch.put(OUTPUT + path, this.#packr.pack(record));
    }
    for (const [key, failure] of commit.failures) {
      if (failure === null) batch.del(FAILURE + key);
      else batch.put(FAILURE + key, this.#packr.pack(failure));
    }
    if (commit.checkpoint) batch.put(CHECKPOINT, this.#packr.pack(commit.checkpoint));
    await batch.write();
  }

  async fault(): Promise<ProjectorFault | undefined> {
    const bytes = await this.#sub.get(FAULT);
    const parsed = bytes === undefined ? undefined : faultShape.safeParse(this.#decode(bytes));
    return parsed?.success ? parsed.data : undefined;
  }

  async saveFault(fault: ProjectorFault): Promise<void> {
    await this.#sub.put(FAULT, this.#packr.pack(fault));
  }

  async note(): Promise<ResetNote | undefined> {
    const bytes = await this.#sub.get(NOTE);
    const parsed = bytes === undefined ? undefined : noteShape.safeParse(this.#decode(bytes));
    return parsed?.success ? parsed.data : undefined;
  }

  /**
   * Starts this projection over: the next generation, empty but for the note saying why (when it
   * was not asked for), becomes
   * current in one write; the old generation is cleared after, and a crash before that clear
   * only leaves garbage that the next reset (or open) clears.
   */
  async reset(note: ResetNote | undefined): Promise<void> {
    const old = this.#sub;
    const generation = this.#generation + 1;
    const next = this.#sublevel(generation);
    const batch = this.#db.batch();
    if (note) batch.put(NOTE, this.#packr.pack(note), { sublevel: next });
    batch.put(this.#name, this.#packr.pack({ generation }), { sublevel: this.#lanes });
    await batch.write();
    this.#generation = generation;
    this.#sub = next;
    await old.clear();
  }

  /** Clears what a reset interrupted before its clear left of the previous generation. */
  async clearStale(): Promise<void> {
    if (this.#generation > 0) await this.#sublevel(this.#generation - 1).clear();
  }

  #sublevel(generation: number): Sublevel {
    return sublevelOf(this.#db, `p.${this.#name}.${generation}`);
  }

  #decode(bytes: Bytes): unknown {
    try {
      return this.#packr.unpack(bytes);
    } catch {
      return undefined;
    }
  }

  #decodeRow(bytes: Bytes): unknown {
    try {
      return this.#packr.unpack(bytes);
    } catch (cause) {
      throw new EngramError('STATE_CORRUPT', `a row of ${this.#name} does not decode`, { cause });
    }
  }
}
