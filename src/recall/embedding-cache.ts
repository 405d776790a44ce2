import { mkdirSync } from 'node:fs';
import { Level } from 'level';
import { contentHash } from '../content-hash.js';
import { EngramError } from '../errors.js';
import { throwIfAborted, type Embedder } from '../indexes/embedder.js';

/**
 * Vectors already computed, keyed by model and the hash of the text, in a LevelDB of its own
 * (`<ENGRAM_HOME>/cache/embeddings`). A cache, not a projection: no reset or rebuild drops it,
 * so a rebuild re-embeds only text that changed. An entry that does not decode as a vector of
 * the model's length is a miss, and is written again.
 */
export class EmbeddingCache {
  readonly #db: Level<string, Uint8Array>;

  private constructor(db: Level<string, Uint8Array>) {
    this.#db = db;
  }

  static async open(dir: string): Promise<EmbeddingCache> {
    mkdirSync(dir, { recursive: true });
    const db = new Level<string, Uint8Array>(dir, { keyEncoding: 'utf8', valueEncoding: 'view' });
    try {
      await db.open();
    } catch (err) {
      throw new EngramError('VECTORS_UNAVAILABLE', `the embedding cache at ${dir} could not be opened`, { cause: err });
    }
    return new EmbeddingCache(db);
  }

  /** The cached vector of each text (undefined: not cached). */
  async get(model: string, dimensions: number, texts: readonly string[]): Promise<Array<Float32Array | undefined>> {
    if (texts.length === 0) return [];
    const values = await this.#db.getMany(texts.map((text) => cacheKey(model, text)));
    return values.map((value) => (value && value.byteLength === dimensions * 4 ? toVector(value) : undefined));
  }

  async put(model: string, entries: ReadonlyArray<readonly [text: string, vector: Float32Array]>): Promise<void> {
    if (entries.length === 0) return;
    await this.#db.batch(entries.map(([text, vector]) => ({ type: 'put' as const, key: cacheKey(model, text), value: new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength) })));
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}

function cacheKey(model: string, text: string): string {
  return `${model}:${contentHash(text)}`;
}

function toVector(bytes: Uint8Array): Float32Array {
  // A copy: LevelDB's buffer may be reused, and Float32Array needs 4-byte alignment.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}

/** Texts embedded and written to the cache at a time, so work survives a crash mid-rebuild. */
const CHUNK = 64;

/**
 * The embedder with the cache in front: texts already cached never reach the model, a text
 * asked twice in one call is embedded once, and what the model makes is cached a chunk at a
 * time (a cold rebuild stopped halfway keeps the half it did).
 */
export function cachedEmbedder(embedder: Embedder, cache: EmbeddingCache): Embedder {
  return {
    model: embedder.model,
    dimensions: embedder.dimensions,
    async embed(texts, signal) {
      const found = await cache.get(embedder.model, embedder.dimensions, texts);
      const missing = [...new Set(texts.filter((_, i) => found[i] === undefined))];
      if (missing.length === 0) return found as Float32Array[];
      const made = new Map<string, Float32Array>();
      for (let start = 0; start < missing.length; start += CHUNK) {
        throwIfAborted(signal);
        const chunk = missing.slice(start, start + CHUNK);
        const vectors = await embedder.embed(chunk, signal);
        const entries = chunk.map((text, i) => [text, vectors[i]!] as const);
        await cache.put(embedder.model, entries);
        for (const [text, vector] of entries) made.set(text, vector);
      }
      return texts.map((text, i) => found[i] ?? made.get(text)!);
    },
    close: () => embedder.close(),
    ...(embedder.loaded ? { loaded: () => embedder.loaded!() } : {}),
  };
}
