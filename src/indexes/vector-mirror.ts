import type { VectorHit } from './vector-hit.js';

/** One row as the mirror keeps it. */
export interface MirrorRow {
  id: string;
  project: string;
  vector: Float32Array;
}

/**
 * A vectors table's rows held in memory for search: the nearest rows by a dot product over every
 * row of the project and the global ones. Measured on this machine, a LanceDB vector query over
 * 10,000 rows took 40 ms at best (planning, scanning the fragments), this loop a few; and the
 * vectors are of unit length (embedder.ts), so the dot product is the cosine, computed as
 * `cosine()` computes it for the evaluation. Kept in step with the store's own writes by
 * `upsert` and `remove`; `version` is the table version it matches.
 */
export class VectorMirror {
  version: number;
  readonly #ids: string[] = [];
  readonly #projects: string[] = [];
  readonly #vectors: Float32Array[] = [];
  readonly #at = new Map<string, number>();

  constructor(version: number, rows: Iterable<MirrorRow>) {
    this.version = version;
    this.upsert(rows);
  }

  get size(): number {
    return this.#ids.length;
  }

  upsert(rows: Iterable<MirrorRow>): void {
    for (const row of rows) {
      const at = this.#at.get(row.id);
      if (at !== undefined) {
        this.#projects[at] = row.project;
        this.#vectors[at] = row.vector;
        continue;
      }
      this.#at.set(row.id, this.#ids.length);
      this.#ids.push(row.id);
      this.#projects.push(row.project);
      this.#vectors.push(row.vector);
    }
  }

  remove(ids: Iterable<string>): void {
    for (const id of ids) {
      const at = this.#at.get(id);
      if (at === undefined) continue;
      // The last row takes the removed one's place: order is not kept, nearest() sorts.
      const last = this.#ids.length - 1;
      if (at !== last) {
        this.#ids[at] = this.#ids[last]!;
        this.#projects[at] = this.#projects[last]!;
        this.#vectors[at] = this.#vectors[last]!;
        this.#at.set(this.#ids[at]!, at);
      }
      this.#ids.pop();
      this.#projects.pop();
      this.#vectors.pop();
      this.#at.delete(id);
    }
  }

  /** The `limit` rows nearest `vector` among `project`'s and the global ('') ones, best first, ties by id. */
  nearest(vector: Float32Array, options: { project: string; limit: number }): VectorHit[] {
    const best: VectorHit[] = [];
    const dimensions = vector.length;
    for (let i = 0; i < this.#ids.length; i++) {
      const project = this.#projects[i]!;
      if (project !== options.project && project !== '') continue;
      const row = this.#vectors[i]!;
      let dot = 0;
      for (let k = 0; k < dimensions; k++) dot += vector[k]! * row[k]!;
      if (best.length === options.limit && !before(dot, this.#ids[i]!, best[best.length - 1]!)) continue;
      // Insertion into the short sorted list: limit is 10, rows are thousands.
      let j = Math.min(best.length, options.limit - 1);
      if (best.length < options.limit) best.push({ id: '', cosine: 0 });
      while (j > 0 && before(dot, this.#ids[i]!, best[j - 1]!)) {
        best[j] = best[j - 1]!;
        j--;
      }
      best[j] = { id: this.#ids[i]!, cosine: dot };
    }
    return best;
  }
}

function before(cosine: number, id: string, other: VectorHit): boolean {
  return cosine > other.cosine || (cosine === other.cosine && id < other.id);
}
