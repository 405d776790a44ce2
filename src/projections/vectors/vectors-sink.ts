import { contentHash } from '../../content-hash.js';
import { describeError } from '../../errors.js';
import type { Embedder } from '../../indexes/embedder.js';
import type { VectorStore } from '../../indexes/vector-store.js';
import { isMemoryKey, memoryIdOf, type MemoriesRow } from '../memories/memories.js';
import type { MemoryRow } from '../memories/memory-row.js';
import type { Sink, SinkReport } from '../projector.js';
import type { RowChange } from '../row-change.js';
import { indexedText } from './indexed-text.js';

export interface VectorsSinkOptions {
  store: VectorStore;
  /** Should have the embedding cache in front (cachedEmbedder), so a rebuild re-embeds nothing unchanged. */
  embedder: Embedder;
  /** Rows upserted or removed between two compactions of the table. Default 1000. */
  optimizeEvery?: number;
}

/** Recalled: active, and in its memory directory (not in `_archive/`). */
export function isRecallable(row: MemoryRow): boolean {
  return row.status === 'active' && row.archived === undefined;
}

/**
 * Materializes memory rows as vectors: an active memory is embedded (through the cache) and
 * upserted by id; a provisional, superseded, archived or gone one is removed. Embedding happens
 * here, never in `evolve` and never as events, so the log stays free of any one model. Other
 * rows (directories, hygiene) have no vector. A model or table that fails fails its rows, which
 * are retried later; a round is never held up by them.
 */
export class VectorsSink implements Sink<MemoriesRow> {
  readonly #store: VectorStore;
  readonly #embedder: Embedder;
  readonly #optimizeEvery: number;
  #sinceOptimize = 0;

  constructor(options: VectorsSinkOptions) {
    if (options.store.model !== options.embedder.model || options.store.dimensions !== options.embedder.dimensions) {
      throw new Error(`the vector store is for ${options.store.model} (${options.store.dimensions}-d), the embedder is ${options.embedder.model} (${options.embedder.dimensions}-d)`);
    }
    this.#store = options.store;
    this.#embedder = options.embedder;
    this.#optimizeEvery = options.optimizeEvery ?? 1000;
  }

  async apply(changes: readonly RowChange<MemoriesRow>[]): Promise<SinkReport> {
    const keep: Array<{ key: string; row: MemoryRow }> = [];
    const remove: Array<{ key: string; id: string }> = [];
    for (const { key, row } of changes) {
      if (!isMemoryKey(key)) continue;
      const memory = row as MemoryRow | null;
      if (memory && isRecallable(memory)) keep.push({ key, row: memory });
      else remove.push({ key, id: memory?.id ?? memoryIdOf(key) });
    }
    const failed: SinkReport['failed'] = [];
    // A model that cannot load or a table that cannot be written fails these rows, not the
    // round: they are recorded, shown by `engram doctor` and retried, and the lane (with the
    // reactors waiting on every lane to catch up) goes on.
    const fail = (keys: readonly string[], err: unknown) => failed.push(...keys.map((key) => ({ key, message: describeError(err) })));
    try {
      await this.#store.remove(remove.map(({ id }) => id));
    } catch (err) {
      fail(remove.map(({ key }) => key), err);
    }
    if (keep.length > 0) {
      try {
        const texts = keep.map(({ row }) => indexedText(row));
        const vectors = await this.#embedder.embed(texts);
        await this.#store.upsert(
          keep.map(({ row }, i) => ({ id: row.id, project: row.project, file: row.file, name: row.name, textHash: contentHash(texts[i]!), vector: vectors[i]! })),
        );
      } catch (err) {
        fail(keep.map(({ key }) => key), err);
      }
    }
    this.#sinceOptimize += keep.length + remove.length;
    if (this.#sinceOptimize >= this.#optimizeEvery && failed.length === 0) {
      // Compaction is housekeeping: when it fails, the next one tries again.
      await this.#store.optimize().catch(() => undefined);
      this.#sinceOptimize = 0;
    }
    return { outputs: [], failed };
  }

  /** Drops this model's table; the embedding cache stays, so the rebuild is cheap. */
  async reset(): Promise<void> {
    await this.#store.drop();
    this.#sinceOptimize = 0;
  }
}
