import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Sink } from './projector.js';
import type { FileRoot, FileSinkChange } from './file-changes.js';
import { mergeIndex } from './memory-index.js';

export interface FileSinkOptions {
  roots: Record<FileRoot, string>;
  /**
   * Directories under the views root that this sink alone writes, wiped on reset. Files under
   * the claude root are never deleted: they are rewritten in place (DESIGN.md invariant 6).
   */
  ownedViewDirs: readonly string[];
}

/** Writes projected files atomically (temp + rename) and merges MEMORY.md indexes. */
export class FileSink implements Sink<FileSinkChange> {
  readonly #options: FileSinkOptions;
  readonly #madeDirs = new Set<string>();
  #writes = 0;

  constructor(options: FileSinkOptions) {
    this.#options = options;
  }

  async apply(changes: readonly FileSinkChange[]): Promise<void> {
    for (const change of changes) {
      if (change.kind === 'file') {
        await this.#write(join(this.#options.roots[change.root], change.path), change.render());
      } else {
        const path = join(this.#options.roots.claude, change.dir, 'MEMORY.md');
        const existing = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return undefined;
          throw err;
        });
        const merged = mergeIndex(existing, change.entries);
        if (merged !== existing) await this.#write(path, merged);
      }
    }
  }

  async reset(): Promise<void> {
    for (const dir of this.#options.ownedViewDirs) {
      await rm(join(this.#options.roots.views, dir), { recursive: true, force: true });
    }
    this.#madeDirs.clear();
  }

  async #write(path: string, content: string): Promise<void> {
    const dir = dirname(path);
    if (!this.#madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.#madeDirs.add(dir);
    }
    const tmp = `${path}.${process.pid}-${++this.#writes}.tmp`;
    try {
      await writeFile(tmp, content);
    } catch (err) {
      // Someone removed the directory since it was made.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(dir, { recursive: true });
      await writeFile(tmp, content);
    }
    await rename(tmp, path);
  }
}
