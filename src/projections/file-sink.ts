import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { syncDir, writeFileAtomic } from '../atomic-write.js';
import { contentHash as hashOf } from '../content-hash.js';
import { describeError } from '../errors.js';
import { clearLeftovers } from '../ownership/leftovers.js';
import { mergeIndexText, type IndexPart, type MemoryIndex } from '../ownership/memory-index-lines.js';
import { readOwnedFile, removeOwnedFile, replaceOwnedFile, type OwnedFile } from '../ownership/owned-file.js';
import type { OwnershipLedger } from '../ownership/ownership-ledger.js';
import { BASE_TEXT_LIMIT, recordBeforeWrite, type OwnershipRecord } from '../ownership/ownership-record.js';
import { whoseFile } from '../ownership/whose-file.js';
import type { FileOp } from './file-ops.js';
import { PrefetchedLedger } from './prefetched-ledger.js';

/** Under a sink's root that is engram's alone (views/): where its temporary files are written. */
const TMP_DIR = '.tmp';
/** Why a deferred sink's row has no file yet (see FileSinkOptions.deferred). */
export const DEFERRED = 'written once the rebuilt state is complete';
import type { OutputRecord, Sink, SinkContext, SinkReport } from './projector.js';
import type { RowChange } from './row-change.js';

export interface FileSinkOptions<R> {
  /** The directory every path is relative to. */
  root: string;
  /**
   * Turns one row into the file operations that show it ([] for a row with no file). Pure but
   * for `scan`: an output made of many rows reads them through it (see SinkContext).
   */
  materialize(key: string, row: R, scan: SinkContext['scan']): readonly FileOp[] | Promise<readonly FileOp[]>;
  /**
   * Directories under `root` that this sink alone writes, wiped on reset. Memory files are
   * never listed here: they are rewritten in place, never deleted (DESIGN.md invariant 6).
   * Default: none.
   */
  ownedDirs?: readonly string[];
  /**
   * Files people own too (memory directories, outside ENGRAM_HOME): every write, move and
   * removal asks src/ownership whose the file is, and a person's file is never overwritten,
   * removed or replaced. Off for views in ENGRAM_HOME that people are not meant to edit.
   * Default true.
   */
  shared?: boolean;
  /**
   * Hashes of files the row has taken in by an event (a recorded hand edit, an import in place):
   * a fact src/ownership weighs, not a decision. Default none.
   */
  takenHashes?(row: R, existing: string): ReadonlyArray<string | undefined>;
  /** Which writer of MEMORY.md this sink is: each owns the lines it wrote there. Default 'index'. */
  indexWriter?: string;
  /**
   * Writers of MEMORY.md whose lines this sink's part goes before when it has none there yet, so
   * the file does not depend on which lane reached the directory first. Default none.
   */
  indexBefore?: readonly string[];
  /**
   * Write nothing yet (a whole rebuild, for files people own too): each row with a file is
   * reported failed with DEFERRED, so the lane records it and the runner's retry of failed rows
   * makes it from the committed state, once that state is complete. Default false.
   */
  deferred?: boolean;
  /**
   * Sync each file to disk before it replaces the old one. Default true; views that a rebuild
   * can always make again turn it off, which makes a rebuild several times faster.
   */
  durable?: boolean;
}

/**
 * Writes rows as files and its part of MEMORY.md. For files people may also edit (`shared`),
 * src/ownership decides, path by path, whether engram may touch what is there: it records the
 * hash it intends to write before writing, writes so that a save landing at the same instant is
 * put back, and records what landed. A row whose files cannot be written is reported and does
 * not stop the others; it is tried again until it lands.
 */
export class FileSink<R> implements Sink<R> {
  readonly #options: FileSinkOptions<R>;
  /** Directories whose leftovers of a crashed write were cleared since this process started. */
  readonly #cleared = new Set<string>();
  /** Whether the views' temporary directory was emptied since this process started. */
  #tmpCleared = false;

  constructor(options: FileSinkOptions<R>) {
    this.#options = options;
  }

  get #shared(): boolean {
    return this.#options.shared ?? true;
  }

  async apply(changes: readonly RowChange<R>[], context: SinkContext): Promise<SinkReport> {
    const planned: Array<{ key: string; row: R | null; ops: readonly FileOp[] }> = [];
    for (const change of changes) {
      planned.push({ key: change.key, row: change.row, ops: change.row === null ? [] : await this.#options.materialize(change.key, change.row, context.scan) });
    }
    const report: SinkReport = { outputs: [], failed: [] };
    if (this.#options.deferred) {
      for (const { key, ops } of planned) if (ops.length > 0) report.failed.push({ key, message: DEFERRED });
      return report;
    }
    if (!this.#shared) {
      // engram's own files (views/): temporaries go to one directory under the root, emptied on
      // this process's first write, so a kill -9 mid-write leaves nothing in the views themselves.
      const tmpDir = join(this.#options.root, TMP_DIR);
      if (!this.#tmpCleared) {
        rmSync(tmpDir, { recursive: true, force: true });
        this.#tmpCleared = true;
      }
      for (const { key, ops } of planned) {
        try {
          for (const op of ops) {
            if (op.kind === 'write') {
              writeFileAtomic(join(this.#options.root, op.path), op.content, { durable: this.#options.durable ?? true, tmpDir });
              report.outputs.push([op.path, { key, hash: hashOf(op.content), state: 'written' }]);
            }
          }
        } catch (err) {
          report.failed.push({ key, message: describeError(err) });
        }
      }
      return report;
    }
    const paths = planned.flatMap(({ ops }) => ops.flatMap((op) => (op.kind === 'write' || op.kind === 'retire' ? [op.path] : [])));
    const legacy = new Map<string, OutputRecord | undefined>();
    const known = await context.outputs(paths);
    paths.forEach((path, i) => legacy.set(path, known[i]));
    // Every path's record in one read; kept current as records are put.
    const fulls = [...new Set(paths.map((path) => join(this.#options.root, path)))];
    const ledger = new PrefetchedLedger(context.ledger, fulls, await context.ledger.get(fulls));
    // A file left alone as someone else's is not indexed as engram's either.
    const leftAlone = new Map<string, Set<string>>();
    const failed = new Set<string>();
    const fail = (key: string, err: unknown) => {
      if (failed.has(key)) return;
      failed.add(key);
      report.failed.push({ key, message: describeError(err) });
    };
    // Writes and removals in a row (up to an index op) go together: see #applyAll.
    let batch: PendingOp<R>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const ops = batch;
      batch = [];
      for (const { key, path, record } of await this.#applyAll(ops, ledger, legacy, failed, fail)) {
        report.outputs.push([path, record]);
        if (record !== null && record.state !== 'written') leftAlone.get(key)!.add(path);
      }
    };
    for (const { key, row, ops } of planned) {
      leftAlone.set(key, new Set());
      const fresh = ops.find((op) => op.kind === 'write')?.content;
      for (const op of ops) {
        if (op.kind === 'write' || op.kind === 'retire') {
          try {
            await this.#clear(dirname(join(this.#options.root, op.path)), ledger);
          } catch (err) {
            fail(key, err);
            break;
          }
          // Each path once in a batch: a second op on it waits for the first to be done.
          if (batch.some((pending) => pending.path === op.path)) await flush();
          if (failed.has(key)) break;
          batch.push(op.kind === 'write'
            ? { kind: 'write', key, row: row as R, path: op.path, content: op.content }
            : { kind: 'retire', key, row: row as R, path: op.path, content: op.content ?? fresh });
          continue;
        }
        await flush();
        if (failed.has(key)) break;
        try {
          if (op.kind === 'index') {
            const entries = op.entries.filter((entry) => !leftAlone.get(key)!.has(`${op.dir}/${entry.file}`));
            await this.#updateIndex(op.dir, { kind: 'entries', entries }, ledger);
          } else {
            await this.#updateIndex(op.dir, { kind: 'memories', index: op.index }, ledger, op.full);
          }
        } catch (err) {
          fail(key, err);
        }
      }
    }
    await flush();
    return report;
  }

  locate(path: string): string {
    return join(this.#options.root, path);
  }

  async reset(): Promise<void> {
    for (const dir of this.#options.ownedDirs ?? []) rmSync(join(this.#options.root, dir), { recursive: true, force: true });
  }

  #taken(row: R, bytes: Buffer | undefined): ReadonlyArray<string | undefined> {
    return bytes === undefined || !this.#options.takenHashes ? [] : this.#options.takenHashes(row, bytes.toString('utf8'));
  }

  async #clear(dir: string, ledger: OwnershipLedger): Promise<void> {
    if (this.#cleared.has(dir)) return;
    await clearLeftovers(dir, ledger, [this.#options.indexWriter ?? 'index', ...(this.#options.indexBefore ?? [])]);
    this.#cleared.add(dir);
  }

  /** The ledger's record of a path, or (a home from before the ledger) what the lane recorded of it. */
  async #record(full: string, ledger: OwnershipLedger, legacy: OutputRecord | undefined): Promise<OwnershipRecord | undefined> {
    const [record] = await ledger.get([full]);
    if (record !== undefined) return record;
    return legacy !== undefined && legacy.state !== 'foreign' ? { hash: legacy.hash } : undefined;
  }

  /**
   * Writes each file unless it is someone else's and removes each retired one that is still
   * engram's, in order; returns what to record of each path (a row that fails is reported through
   * `fail` and its later ops skipped). The records of the files engram is about to write are put
   * in one batch before the first write, what landed in one batch after the last, and each
   * directory is synced once before that: a crash in between finds each file as it was or as
   * engram intended, both known as engram's.
   */
  async #applyAll(ops: readonly PendingOp<R>[], ledger: PrefetchedLedger, legacy: ReadonlyMap<string, OutputRecord | undefined>, failed: Set<string>, fail: (key: string, err: unknown) => void): Promise<Array<{ key: string; path: string; record: OutputRecord | null }>> {
    const decided = new Map<PendingOp<R>, { full: string; file: OwnedFile; hash: string; record: OwnershipRecord | undefined; existingHash: string | undefined; landed: OwnershipRecord }>();
    const done: Array<{ key: string; path: string; record: OutputRecord | null }> = [];
    const before: Array<[string, OwnershipRecord]> = [];
    const after: Array<[string, OwnershipRecord]> = [];
    // First what each write will do, and the records it intends, put before any file is touched.
    const settled = new Map<PendingOp<R>, OutputRecord>();
    for (const op of ops) {
      if (op.kind !== 'write' || failed.has(op.key)) continue;
      try {
        const full = join(this.#options.root, op.path);
        const file = readOwnedFile(full);
        const hash = hashOf(op.content);
        const record = await this.#record(full, ledger, legacy.get(op.path));
        const landed: OwnershipRecord = { hash, ...(op.content.length <= BASE_TEXT_LIMIT ? { text: op.content } : {}) };
        const existingHash = file.bytes === undefined ? undefined : hashOf(file.bytes);
        if (existingHash === hash) {
          if (record?.hash !== hash || record.intended !== undefined || record.text !== landed.text) after.push([full, landed]);
          settled.set(op, { key: op.key, hash, state: 'written' });
          continue;
        }
        const owner = whoseFile(existingHash, record, { fresh: hash, taken: this.#taken(op.row, file.bytes) });
        if (owner === 'user') {
          settled.set(op, { key: op.key, hash: record?.hash ?? existingHash!, state: record ? 'edited' : 'foreign' });
          continue;
        }
        // Intended first: a crash after the write, before the record, still knows the file as engram's.
        before.push([full, recordBeforeWrite(record, file.bytes, existingHash, hash)]);
        decided.set(op, { full, file, hash, record, existingHash, landed });
      } catch (err) {
        fail(op.key, err);
      }
    }
    try {
      await ledger.put(before);
    } catch (err) {
      for (const op of decided.keys()) fail(op.key, err);
    }
    const durable = this.#options.durable ?? true;
    const dirs = new Set<string>();
    for (const op of ops) {
      if (failed.has(op.key)) continue;
      try {
        if (op.kind === 'retire') {
          const record = await this.#retire(op.key, op.row, op.path, op.content, ledger, legacy.get(op.path));
          if (record !== undefined) done.push({ key: op.key, path: op.path, record });
          continue;
        }
        const already = settled.get(op);
        if (already) {
          done.push({ key: op.key, path: op.path, record: already });
          continue;
        }
        const { full, file, hash, record, existingHash, landed } = decided.get(op)!;
        const outcome = replaceOwnedFile(file, op.content, { durable, syncDir: false });
        dirs.add(dirname(file.target));
        if (outcome === 'raced') {
          // Someone saved it meanwhile: their bytes are back; the reconciler records them.
          after.push([full, record ?? { hash: existingHash ?? hash }]);
          done.push({ key: op.key, path: op.path, record: { key: op.key, hash: record?.hash ?? hash, state: 'edited' } });
        } else {
          after.push([full, landed]);
          done.push({ key: op.key, path: op.path, record: { key: op.key, hash, state: 'written' } });
        }
      } catch (err) {
        fail(op.key, err);
      }
    }
    if (durable) for (const dir of dirs) syncDir(dir);
    try {
      await ledger.put(after);
    } catch (err) {
      // Nothing written here is known as landed: every row is tried again.
      for (const { key } of done) fail(key, err);
      return [];
    }
    return done;
  }

  /**
   * Removes engram's file at `path` (its row moved elsewhere); returns what to record of the
   * path (null: nothing any more), or undefined to leave the record as it is. A file that is
   * someone's stays where it is.
   */
  async #retire(key: string, row: R, path: string, fresh: string | undefined, ledger: OwnershipLedger, legacy: OutputRecord | undefined): Promise<OutputRecord | null | undefined> {
    const full = join(this.#options.root, path);
    const file = readOwnedFile(full);
    const record = await this.#record(full, ledger, legacy);
    if (file.bytes === undefined) {
      if (record !== undefined) await ledger.put([[full, null]]);
      return legacy === undefined ? undefined : null;
    }
    const existingHash = hashOf(file.bytes);
    const owner = whoseFile(existingHash, record, { fresh: fresh === undefined ? undefined : hashOf(fresh), taken: this.#taken(row, file.bytes) });
    if (owner === 'user') return record ? { key, hash: record.hash, state: 'edited' } : undefined;
    if (removeOwnedFile(file) === 'raced') return record ? { key, hash: record.hash, state: 'edited' } : undefined;
    await ledger.put([[full, null]]);
    return legacy === undefined ? undefined : null;
  }

  /**
   * Puts this sink's lines into `dir`/MEMORY.md, each writer owning the lines it wrote there
   * (the ledger keeps them, by writer). Lines engram is about to write are recorded as its own
   * before the write, so a crash in between never leaves engram's lines looking like a person's.
   * The file is compared once more right before it is replaced; the replace itself puts back a
   * save that lands during it, and the merge is then done again over that save. `full`: the
   * memories' whole index, asked for when the part holds too few of its entries for this file.
   */
  async #updateIndex(dir: string, part: IndexPart, ledger: OwnershipLedger, full?: () => Promise<MemoryIndex>): Promise<void> {
    const path = join(this.#options.root, dir, 'MEMORY.md');
    await this.#clear(dirname(path), ledger);
    const key = `${path}#${this.#options.indexWriter ?? 'index'}`;
    const [record] = await ledger.get([key]);
    const otherKeys = (this.#options.indexBefore ?? []).map((writer) => `${path}#${writer}`);
    for (let attempt = 0; attempt < 5; attempt++) {
      const file = readOwnedFile(path);
      // Read after the file: a writer records its lines before it writes them, so every line of
      // theirs in these bytes is in their record.
      const others = otherKeys.length === 0 ? [] : (await ledger.get(otherKeys)).flatMap((other) => other?.lines ?? []);
      const { bytes, owned: lines, short } = mergeIndexText(file.bytes, record?.lines, part, others);
      if (short && full) {
        [part, full, attempt] = [{ kind: 'memories', index: await full() }, undefined, attempt - 1];
        continue;
      }
      if (file.bytes !== undefined ? bytes.equals(file.bytes) : bytes.length === 0) {
        if (!sameLines(record?.lines, lines)) await ledger.put([[key, { hash: hashOf(bytes), lines }]]);
        return;
      }
      await ledger.put([[key, { hash: record?.hash ?? '', lines: [...new Set([...(record?.lines ?? []), ...lines])].sort() }]]);
      // Nothing awaits from here to the replace: no other lane writes MEMORY.md in between.
      const now = readIfThere(file.target);
      if (!sameBytes(now, file.bytes)) continue;
      if (replaceOwnedFile(file, bytes, { durable: this.#options.durable ?? true }) === 'raced') continue;
      await ledger.put([[key, { hash: hashOf(bytes), lines }]]);
      return;
    }
    throw new Error(`${path} kept changing while engram merged its lines; tried again later`);
  }
}

/** A write or removal waiting for the others next to it (see FileSink.#applyAll). */
type PendingOp<R> =
  | { kind: 'write'; key: string; row: R; path: string; content: string }
  | { kind: 'retire'; key: string; row: R; path: string; content: string | undefined };

function sameLines(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((line, i) => line === b[i]);
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
