import type { VectorHit } from './vector-hit.js';
import { FloatRows, scanError } from './float-rows.js';

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
 *
 * The rows live in one Float32Array, row after row, and the dot product runs four lanes at a
 * time: over 10,000 rows of 512 floats that halved the scan against an array of per-row arrays
 * summed one float at a time (3.5–8 ms against 6–15 ms here, docs/performance.md), the rows read
 * in order from one buffer instead of 10,000 objects scattered over the heap. Where WebAssembly
 * has SIMD (float-rows.ts), that buffer lives in WebAssembly memory and is scanned there in 32-bit
 * floats, 5–6 ms down to ≈ 1.5 ms; the rows whose score lies within the scan's error of the cut
 * are then scored again as above, so the nearest rows and their cosines are the same, bit for bit.
 */
export class VectorMirror {
  version: number;
  /**
   * Rows held as bytes (a scale per row and 8-bit values), a quarter of the memory: for tables
   * too large to hold as floats (vector-store.ts). The cosine is then off by about 1e-5 on
   * USE Lite's 512 floats (each value off by at most half a step of 1/127 of the row's largest).
   */
  readonly packed: boolean;
  /** With `packed`: row i's values are #bytes[i * #dimensions, …) × #scales[i]. */
  #bytes = new Int8Array(0);
  #scales = new Float32Array(0);
  readonly #ids: string[] = [];
  /** Each row's project, as a number (#projectCodes): comparing numbers per row, not strings. */
  #projects: Int32Array = new Int32Array(64);
  readonly #projectCodes = new Map<string, number>();
  /** Unless `packed`: row i is #matrix[i * #dimensions, (i + 1) * #dimensions). */
  #matrix: Float32Array = new Float32Array(0);
  /** Unless `packed`, where SIMD is at hand: what holds #matrix and #projects, and scans them. */
  #simd: FloatRows | undefined;
  /** The largest norm a row held as floats ever had (scanError's bound). */
  #rowNorm = 0;
  #dimensions = 0;
  readonly #at = new Map<string, number>();

  constructor(version: number, rows: Iterable<MirrorRow>, options: { packed?: boolean } = {}) {
    this.version = version;
    this.packed = options.packed ?? false;
    this.upsert(rows);
  }

  get size(): number {
    return this.#ids.length;
  }

  upsert(rows: Iterable<MirrorRow>): void {
    for (const row of rows) {
      const at = this.#at.get(row.id) ?? this.#append(row.id, row.vector.length);
      this.#projects[at] = this.#codeOf(row.project);
      const start = at * this.#dimensions;
      const part = row.vector.subarray(0, this.#dimensions);
      if (this.packed) {
        this.#scales[at] = pack(part, this.#bytes, start, this.#dimensions);
        continue;
      }
      this.#matrix.set(part, start);
      this.#matrix.fill(0, start + part.length, start + this.#dimensions);
      this.#rowNorm = Math.max(this.#rowNorm, norm(part));
    }
  }

  remove(ids: Iterable<string>): void {
    for (const id of ids) {
      const at = this.#at.get(id);
      if (at === undefined) continue;
      // The last row takes the removed one's place: order is not kept, nearest() sorts.
      const last = this.#ids.length - 1;
      if (at !== last) {
        const d = this.#dimensions;
        this.#ids[at] = this.#ids[last]!;
        this.#projects[at] = this.#projects[last]!;
        if (this.packed) {
          this.#bytes.copyWithin(at * d, last * d, (last + 1) * d);
          this.#scales[at] = this.#scales[last]!;
        } else this.#matrix.copyWithin(at * d, last * d, (last + 1) * d);
        this.#at.set(this.#ids[at]!, at);
      }
      this.#ids.pop();
      this.#at.delete(id);
    }
  }

  /** The `limit` rows nearest `vector` among `project`'s and the global ('') ones, best first, ties by id. */
  nearest(vector: Float32Array, options: { project: string; limit: number }): VectorHit[] {
    const best: VectorHit[] = [];
    const d = this.#dimensions;
    if (d === 0 || options.limit <= 0) return best;
    const own = this.#projectCodes.get(options.project) ?? -1;
    const global = this.#projectCodes.get('') ?? -1;
    const matrix = this.#matrix;
    const projects = this.#projects;
    const q = vector.length === d ? vector : fitted(vector, d);
    if (this.#simd) return this.#nearestScanned(this.#simd, q, own, global, options.limit);
    const lanes = d - (d % 4);
    const bytes = this.#bytes;
    const scales = this.#scales;
    for (let i = 0, o = 0; i < this.#ids.length; i++, o += d) {
      const project = projects[i]!;
      if (project !== own && project !== global) continue;
      const dot = this.packed ? packedDot(q, bytes, o, d, lanes) * scales[i]! : floatDot(q, matrix, o, d, lanes);
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

  /**
   * nearest() over the SIMD scan: the `limit`-th best scan score less twice the scan's error is a
   * floor no row of the exact top `limit` can be under (each of the `limit` rows scanned at or
   * above the cut is exactly above the cut less the error, and such a row exactly above it);
   * the rows at or over it are scored exactly, in doubles, as the loop above scores them.
   */
  #nearestScanned(rows: FloatRows, q: Float32Array, own: number, global: number, limit: number): VectorHit[] {
    const d = this.#dimensions;
    const n = this.#ids.length;
    const scores = rows.scan(q, n, own, global);
    const cut = new Float64Array(limit).fill(Number.NEGATIVE_INFINITY);
    for (let i = 0; i < n; i++) {
      const score = scores[i]!;
      if (score <= cut[limit - 1]!) continue;
      let j = limit - 1;
      while (j > 0 && score > cut[j - 1]!) {
        cut[j] = cut[j - 1]!;
        j--;
      }
      cut[j] = score;
    }
    const floor = cut[limit - 1]! - 2 * scanError(d, norm(q), this.#rowNorm);
    const best: VectorHit[] = [];
    const lanes = d - (d % 4);
    const matrix = rows.matrix;
    const projects = rows.projects;
    for (let i = 0; i < n; i++) {
      if (!(scores[i]! >= floor) || (projects[i] !== own && projects[i] !== global)) continue;
      const dot = floatDot(q, matrix, i * d, d, lanes);
      if (best.length === limit && !before(dot, this.#ids[i]!, best[best.length - 1]!)) continue;
      let j = Math.min(best.length, limit - 1);
      if (best.length < limit) best.push({ id: '', cosine: 0 });
      while (j > 0 && before(dot, this.#ids[i]!, best[j - 1]!)) {
        best[j] = best[j - 1]!;
        j--;
      }
      best[j] = { id: this.#ids[i]!, cosine: dot };
    }
    return best;
  }

  /** A new row's place, the buffers grown (doubled) when full; the first row fixes the width. */
  #append(id: string, dimensions: number): number {
    if (this.#dimensions === 0) this.#dimensions = dimensions;
    const at = this.#ids.length;
    const d = this.#dimensions;
    const rows = Math.max(64, at * 2);
    if (this.packed && (at + 1) * d > this.#bytes.length) {
      this.#bytes = grown(this.#bytes, new Int8Array(rows * d));
      this.#scales = grown(this.#scales, new Float32Array(rows));
    }
    if (!this.packed && (at + 1) * d > this.#matrix.length) {
      if (FloatRows.fits(d)) {
        this.#simd = new FloatRows(d, rows);
        this.#matrix = grown(this.#matrix, this.#simd.matrix);
        this.#projects = grown(this.#projects.subarray(0, Math.min(this.#projects.length, rows)), this.#simd.projects);
      } else this.#matrix = grown(this.#matrix, new Float32Array(rows * d));
    }
    if (at >= this.#projects.length) this.#projects = grown(this.#projects, new Int32Array(rows));
    this.#ids.push(id);
    this.#at.set(id, at);
    return at;
  }

  #codeOf(project: string): number {
    let code = this.#projectCodes.get(project);
    if (code === undefined) this.#projectCodes.set(project, (code = this.#projectCodes.size));
    return code;
  }
}

/** `into` holding `from` at its start. */
function grown<T extends Int8Array | Int32Array | Float32Array>(from: T, into: T): T {
  into.set(from as never);
  return into;
}

/** q · row, the row at `o` of `matrix`, four lanes at a time. */
function floatDot(q: Float32Array, matrix: Float32Array, o: number, d: number, lanes: number): number {
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  let k = 0;
  for (; k < lanes; k += 4) {
    d0 += q[k]! * matrix[o + k]!;
    d1 += q[k + 1]! * matrix[o + k + 1]!;
    d2 += q[k + 2]! * matrix[o + k + 2]!;
    d3 += q[k + 3]! * matrix[o + k + 3]!;
  }
  for (; k < d; k++) d0 += q[k]! * matrix[o + k]!;
  return d0 + d1 + (d2 + d3);
}

/** The same over a packed row, before its scale. */
function packedDot(q: Float32Array, bytes: Int8Array, o: number, d: number, lanes: number): number {
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  let k = 0;
  for (; k < lanes; k += 4) {
    d0 += q[k]! * bytes[o + k]!;
    d1 += q[k + 1]! * bytes[o + k + 1]!;
    d2 += q[k + 2]! * bytes[o + k + 2]!;
    d3 += q[k + 3]! * bytes[o + k + 3]!;
  }
  for (; k < d; k++) d0 += q[k]! * bytes[o + k]!;
  return d0 + d1 + (d2 + d3);
}

/** Writes `vector` as bytes at `start` of `into` (zero past its end), and returns the scale that gives its values back. */
function pack(vector: Float32Array, into: Int8Array, start: number, dimensions: number): number {
  let largest = 0;
  for (let k = 0; k < vector.length; k++) largest = Math.max(largest, Math.abs(vector[k]!));
  const scale = largest > 0 ? largest / 127 : 1;
  for (let k = 0; k < dimensions; k++) into[start + k] = k < vector.length ? Math.round(vector[k]! / scale) : 0;
  return scale;
}

function norm(vector: Float32Array): number {
  let sum = 0;
  for (let k = 0; k < vector.length; k++) sum += vector[k]! * vector[k]!;
  return Math.sqrt(sum);
}

/** A query of another width than the rows' (a table of another model): cut or zero-padded, as a short row would be. */
function fitted(vector: Float32Array, dimensions: number): Float32Array {
  const out = new Float32Array(dimensions);
  out.set(vector.subarray(0, dimensions));
  return out;
}

function before(cosine: number, id: string, other: VectorHit): boolean {
  return cosine > other.cosine || (cosine === other.cosine && id < other.id);
}
