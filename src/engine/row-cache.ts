/** What the cache holds for a key the store was asked for and does not have. */
export const ABSENT: unique symbol = Symbol('absent');

/**
 * A projection's committed rows, the recently used kept in memory so that keeping up with the
 * log rarely reads LevelDB. Holds only what has been committed (never a round in progress), so
 * throwing a round away never leaves the cache ahead of the store.
 *
 * Two generations rather than an exact LRU: a hit in the young one costs one lookup (a rebuild
 * asks millions of times); when the young one is full it becomes the old one, and what the old
 * one held that nobody asked for since is dropped.
 */
export class RowCache {
  readonly #limit: number;
  #young = new Map<string, unknown>();
  #old = new Map<string, unknown>();

  /** `limit`: rows kept in each generation, so at most twice this many. */
  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  /** The row, ABSENT when the store is known not to hold one, undefined when not cached. */
  get(key: string): unknown {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old !== undefined) this.#put(key, old);
    return old;
  }

  set(key: string, row: unknown): void {
    this.#put(key, row === undefined || row === null ? ABSENT : row);
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
  }

  #put(key: string, row: unknown): void {
    if (this.#young.size >= this.#limit && !this.#young.has(key)) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, row);
  }
}
