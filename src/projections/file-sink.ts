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
      for (const op of this.#options.materialize(change.key, change.row)) {
        if (op.kind === 'write') this.#write(join(this.#options.root, op.path), op.content);
        else this.#mergeIndex(join(this.#options.root, op.dir, 'MEMORY.md'), op.entries);
      }
    }
  }

  async reset(): Promise<void> {
    for (const dir of this.#options.ownedDirs ?? []) rmSync(join(this.#options.root, dir), { recursive: true, force: true });
    this.#madeDirs.clear();
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
