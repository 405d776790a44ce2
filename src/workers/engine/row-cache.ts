/** What the cache holds for a key the store was asked for and does not have. */
export const ABSENT: unique symbol = Symbol('absent');

/**
 * A projection's committed rows, the most recently used kept in memory so that keeping up with
 * the log rarely reads LevelDB. Holds only what has been committed (never a round in progress),
 * so throwing a round away never leaves the cache ahead of the store.
 */
export class RowCache {
  readonly #limit: number;
  readonly #rows = new Map<string, unknown>();

  /** `limit`: rows kept; the least recently used go first. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The row, ABSENT when the store is known not to hold one, undefined when not cached. */
  get(key: string): unknown {
    const row = this.#rows.get(key);
    if (row === undefined) return undefined;
    // Map keeps insertion order: moving a key to the end makes the first key the least recent.
    this.#rows.delete(key);
    this.#rows.set(key, row);
    return row;
  }

  set(key: string, row: unknown): void {
    this.#rows.delete(key);
    this.#rows.set(key, row === undefined || row === null ? ABSENT : row);
    if (this.#rows.size > this.#limit) {
      for (const oldest of this.#rows.keys()) {
        this.#rows.delete(oldest);
        if (this.#rows.size <= this.#limit) break;
      }
    }
  }

  clear(): void {
    this.#rows.clear();
  }
}
