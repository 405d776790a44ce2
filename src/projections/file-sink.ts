import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { contentHash as hashOf } from '../content-hash.js';
import { describeError } from '../errors.js';
import type { FileOp } from './file-ops.js';
import { mergeMemoryIndex } from './memories/memory-index-merge.js';
import { mergeIndex } from './memory-index.js';
import type { OutputRecord, Sink, SinkContext, SinkReport } from './projector.js';
import type { RowChange } from './row-change.js';

export interface FileSinkOptions<R> {
  /** The directory every path is relative to. */
  root: string;
  /** Turns one row into the file operations that show it ([] for a row with no file). Pure. */
  materialize(key: string, row: R): readonly FileOp[];
  /**
   * Directories under `root` that this sink alone writes, wiped on reset. Memory files are
   * never listed here: they are rewritten in place, never deleted (DESIGN.md invariant 6).
   * Default: none.
   */
  ownedDirs?: readonly string[];
  /**
   * For a file engram has no record of writing (a rebuild, a first run): whether what it holds
   * is engram's own, made for this row. A file that is not is someone else's and is left alone.
   * Default: every file at a path this sink writes is its own; a file to retire is never.
   */
  isOwnFile?(existing: string, key: string, row: R): boolean;
  /**
   * For a file whose content is not what this sink last wrote: whether the row has since taken
   * that very content in (a hand edit recorded as an event, an import), so it may be rewritten
   * as the row says. Default: never.
   */
  adopts?(existingHash: string, row: R): boolean;
  /**
   * Whether a file whose content is no longer what this sink last wrote there (someone edited
   * it) is left alone rather than overwritten. Default true; views that people are not meant to
   * edit turn it off.
   */
  keepEdits?: boolean;
  /**
   * Sync each file to disk before it replaces the old one (see writeFileAtomic). Default true;
   * views that a rebuild can always make again turn it off, which makes a rebuild several
   * times faster.
   */
  durable?: boolean;
}

/**
 * Writes rows as files, each replaced atomically, and merges MEMORY.md. For every file it keeps
 * a record (in the projection's state, committed with the rows) of the hash of what it wrote,
 * so that a file someone changed since is recognised and never clobbered. A row whose files
 * cannot be written is reported and does not stop the others. Writes are synchronous: a few
 * small files per row, where thread-pool round trips would cost more than they free.
 */
export class FileSink<R> implements Sink<R> {
  readonly #options: FileSinkOptions<R>;

  constructor(options: FileSinkOptions<R>) {
    this.#options = options;
  }

  async apply(changes: readonly RowChange<R>[], context: SinkContext): Promise<SinkReport> {
    const planned = changes.map((change) => ({
      key: change.key,
      row: change.row,
      ops: change.row === null ? [] : this.#options.materialize(change.key, change.row),
    }));
    const paths = planned.flatMap(({ ops }) => ops.flatMap((op) => (op.kind === 'write' || op.kind === 'retire' ? [op.path] : [])));
    const records = new Map<string, OutputRecord | undefined>();
    const known = await context.outputs(paths);
    paths.forEach((path, i) => records.set(path, known[i]));
    const report: SinkReport = { outputs: [], failed: [] };
    for (const { key, row, ops } of planned) {
      try {
        // A file left alone as someone else's is not indexed as engram's either.
        const leftAlone = new Set<string>();
        for (const op of ops) {
          if (op.kind === 'write') {
            const record = this.#write(key, row as R, op.path, op.content, records.get(op.path));
            report.outputs.push([op.path, record]);
            if (record.state !== 'written') leftAlone.add(op.path);
          } else if (op.kind === 'retire') {
            const record = this.#retire(key, row as R, op.path, records.get(op.path));
            if (record !== undefined) report.outputs.push([op.path, record]);
          } else if (op.kind === 'index') {
            this.#updateIndex(op.dir, (existing) => mergeIndex(existing, op.entries.filter((entry) => !leftAlone.has(`${op.dir}/${entry.file}`))));
          } else {
            this.#updateIndex(op.dir, (existing) => mergeMemoryIndex(existing, op.index));
          }
        }
      } catch (err) {
        report.failed.push({ key, message: describeError(err) });
      }
    }
    return report;
  }

  locate(path: string): string {
    return join(this.#options.root, path);
  }

  async reset(): Promise<void> {
    for (const dir of this.#options.ownedDirs ?? []) rmSync(join(this.#options.root, dir), { recursive: true, force: true });
  }

  /** Writes unless the file is someone else's; returns what to record of the path. */
  #write(key: string, row: R, path: string, content: string, record: OutputRecord | undefined): OutputRecord {
    const full = join(this.#options.root, path);
    const existing = readIfThere(full);
    const hash = hashOf(content);
    // What engram itself last put here, if it ever did.
    const ownHash = record !== undefined && record.state !== 'foreign' ? record.hash : undefined;
    if (existing !== undefined) {
      const existingHash = hashOf(existing);
      if (existingHash === hash) return { key, hash, state: 'written' };
      if (ownHash !== undefined) {
        const adopted = this.#options.adopts?.(existingHash, row) ?? false;
        if (existingHash !== ownHash && !adopted && (this.#options.keepEdits ?? true)) return { key, hash: ownHash, state: 'edited' };
      } else if (this.#options.isOwnFile !== undefined && !this.#options.isOwnFile(existing, key, row)) {
        return { key, hash: existingHash, state: 'foreign' };
      }
    }
    writeFileAtomic(full, content, { durable: this.#options.durable ?? true });
    return { key, hash, state: 'written' };
  }

  /**
   * Removes the file engram wrote at `path` when it is still exactly that; returns what to
   * record of the path (null: nothing any more), or undefined to leave the record as it is.
   */
  #retire(key: string, row: R, path: string, record: OutputRecord | undefined): OutputRecord | null | undefined {
    if (record !== undefined && record.state !== 'written') return undefined;
    const full = join(this.#options.root, path);
    const existing = readIfThere(full);
    if (existing === undefined) return record === undefined ? undefined : null;
    if (record === undefined) {
      // No record (a rebuild in place): only a file that says it was made for this row goes.
      if (!this.#options.isOwnFile?.(existing, key, row)) return undefined;
    } else if (hashOf(existing) !== record.hash) {
      // Changed since engram wrote it: someone's edit, kept where it is.
      return { key, hash: record.hash, state: 'edited' };
    }
    rmSync(full);
    return record === undefined ? undefined : null;
  }

  #updateIndex(dir: string, merge: (existing: string | undefined) => string): void {
    const path = join(this.#options.root, dir, 'MEMORY.md');
    const existing = readIfThere(path);
    const merged = merge(existing);
    if (merged !== existing) writeFileAtomic(path, merged, { durable: this.#options.durable ?? true });
  }
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
