import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';
import { recallIndexViewPath } from '../projections/view-paths.js';
import { cardOf, type MemoryCard } from './memory-card.js';
import { LexicalIndexFile } from '../indexes/lexical-index.js';

/** A lexical index file, opened, and the absolute memory directory its file names are in. */
export interface RecallIndex {
  readonly index: LexicalIndexFile;
  readonly dir: string;
}

/**
 * The index files recall reads for a prompt typed in `project`: the project's and the global
 * directory's, as the recall-index projection wrote them to `views/recall/`. A file not there yet
 * (no memory, a fresh home) is skipped; one that cannot be read throws (RECALL_INDEX_INVALID or
 * the system's error). Hook-safe: Node built-ins only. The caller closes them.
 */
export function openRecallIndexes(paths: Pick<EngramPaths, 'views' | 'claude'>, project: string): RecallIndex[] {
  const opened: RecallIndex[] = [];
  try {
    for (const which of project === '' ? [''] : [project, '']) {
      let index: LexicalIndexFile;
      try {
        index = LexicalIndexFile.open(join(paths.views, recallIndexViewPath(which)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      opened.push({ index, dir: join(paths.claude, index.header.dir) });
    }
  } catch (err) {
    closeRecallIndexes(opened);
    throw err;
  }
  return opened;
}

export function closeRecallIndexes(indexes: readonly RecallIndex[]): void {
  for (const { index } of indexes) index.close();
}

/**
 * Index files kept open across queries (the worker, `engram query --batch`), each reopened when
 * the projection has rewritten it (the file is replaced whole, so its inode or size changes), with
 * every memory's card read once per version for memories only vectors or the graph found.
 */
export class RecallIndexCache {
  readonly #paths: Pick<EngramPaths, 'views' | 'claude'>;
  readonly #open = new Map<string, { index: RecallIndex; stamp: string; cards: Map<string, MemoryCard> | undefined }>();

  constructor(paths: Pick<EngramPaths, 'views' | 'claude'>) {
    this.#paths = paths;
  }

  /** The project's and the global index, current. */
  indexes(project: string): RecallIndex[] {
    return (project === '' ? [''] : [project, '']).flatMap((which) => {
      const entry = this.#current(which);
      return entry ? [entry.index] : [];
    });
  }

  /** A memory of the project's or the global index by id. */
  card(project: string, id: string): MemoryCard | undefined {
    for (const which of project === '' ? [''] : [project, '']) {
      const entry = this.#current(which);
      if (!entry) continue;
      entry.cards ??= new Map(entry.index.index.memories().map((memory) => [memory.id, cardOf(memory, entry.index.dir)]));
      const card = entry.cards.get(id);
      if (card) return card;
    }
    return undefined;
  }

  close(): void {
    for (const entry of this.#open.values()) entry.index.index.close();
    this.#open.clear();
  }

  #current(which: string) {
    const path = join(this.#paths.views, recallIndexViewPath(which));
    let stamp: string;
    try {
      const stat = statSync(path);
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      stamp = '';
    }
    const held = this.#open.get(which);
    if (held && held.stamp === stamp) return held;
    held?.index.index.close();
    this.#open.delete(which);
    if (stamp === '') return undefined;
    const index = LexicalIndexFile.open(path);
    const entry = { index: { index, dir: join(this.#paths.claude, index.header.dir) }, stamp, cards: undefined };
    this.#open.set(which, entry);
    return entry;
  }
}
