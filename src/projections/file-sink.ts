import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Sink } from './projector.js';
import type { FileOp } from './file-ops.js';
import { mergeIndex } from './memory-index.js';
import type { RowChange } from './row-change.js';

export interface FileSinkOptions<R> {
  /** The directory every path is relative to. */
  root: string;
  /** Turns one row into the file operations that show it. Pure. */
  materialize(key: string, row: R): readonly FileOp[];
  /**
   * Directories under `root` that this sink alone writes, wiped on reset. Memory files are
   * never listed here: they are rewritten in place, never deleted (DESIGN.md invariant 6).
   * Default: none.
   */
  ownedDirs?: readonly string[];
  /**
   * For files people may also own: given what a file already holds, whether this sink wrote it.
   * A file it did not write is left as it is, never overwritten (`engram doctor` names it).
   * Default: every file at a path this sink writes is its own.
   */
  isOwnFile?(existing: string): boolean;
}

/**
 * Writes rows as files, each replaced atomically (temp + rename), and merges MEMORY.md. Writes
 * are synchronous: a few small files per row, and a rebuild writes a thousand; the thread-pool
 * round trips of async fs would cost more than they free.
 */
export class FileSink<R> implements Sink<RowChange<R>> {
  readonly #options: FileSinkOptions<R>;
  readonly #madeDirs = new Set<string>();
  #writes = 0;

  constructor(options: FileSinkOptions<R>) {
    this.#options = options;
  }

  async apply(changes: readonly RowChange<R>[]): Promise<void> {
    for (const change of changes) {
      // A file left alone as someone else's is not indexed as engram's either.
      const leftAlone = new Set<string>();
      for (const op of this.#options.materialize(change.key, change.row)) {
        if (op.kind === 'write') {
          const path = join(this.#options.root, op.path);
          if (!this.#writeUnlessForeign(path, op.content)) leftAlone.add(path);
        } else {
          const dir = join(this.#options.root, op.dir);
          this.#mergeIndex(join(dir, 'MEMORY.md'), op.entries.filter((entry) => !leftAlone.has(join(dir, entry.file))));
        }
      }
    }
  }

  async reset(): Promise<void> {
    for (const dir of this.#options.ownedDirs ?? []) rmSync(join(this.#options.root, dir), { recursive: true, force: true });
    this.#madeDirs.clear();
  }

  /** False when the file is someone else's and was left as it is. */
  #writeUnlessForeign(path: string, content: string): boolean {
    const isOwn = this.#options.isOwnFile;
    if (isOwn) {
      let existing: string | undefined;
      try {
        existing = readFileSync(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      if (existing !== undefined && !isOwn(existing)) return false;
    }
    this.#write(path, content);
    return true;
  }

  #mergeIndex(path: string, entries: Parameters<typeof mergeIndex>[1]): void {
    let existing: string | undefined;
    try {
      existing = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const merged = mergeIndex(existing, entries);
    if (merged !== existing) this.#write(path, merged);
  }

  #write(path: string, content: string): void {
    const dir = dirname(path);
    if (!this.#madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.#madeDirs.add(dir);
    }
    const tmp = `${path}.${process.pid}-${++this.#writes}.tmp`;
    try {
      writeFileSync(tmp, content);
    } catch (err) {
      // Someone removed the directory since it was made.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, content);
    }
    renameSync(tmp, path);
  }
}
