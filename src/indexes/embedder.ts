import { EngramError } from '../errors.js';

/**
 * Turns texts into unit vectors. Implementations load their model lazily (on the first `embed`),
 * so a process that never embeds never pays for it.
 */
export interface Embedder {
  /**
   * Which model, as a stable id (letters, digits, `-`, `.`): the embedding cache and the vectors
   * table are keyed by it, and a change of it rebuilds the vectors projection.
   */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per text, in order, each of `dimensions` floats with unit length. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Releases the model; a later `embed` loads it again. */
  close(): Promise<void>;
  /**
   * Whether the model is in memory now, so an `embed` costs milliseconds, not a load (seconds on
   * a busy machine). Absent: assume it is (a test double, a cache in front of one).
   */
  loaded?(): boolean;
  /** What runs the model, once loaded (for `engram worker status` and worker.log); absent: not said. */
  kernel?(): string | undefined;
  /** Resident memory, in MB, of the model's own process when it runs in one (not in this process's). */
  modelRssMb?(): number | undefined;
}

/**
 * A model's output is outside input: each vector must have the declared length and finite
 * values. Returns it scaled to unit length (cosine is then a dot product).
 */
export function checkedVector(model: string, dimensions: number, values: ArrayLike<number>): Float32Array {
  if (values.length !== dimensions) {
    throw new EngramError('EMBEDDING_INVALID', `${model} returned a vector of ${values.length} values, not ${dimensions}`);
  }
  let norm = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (!Number.isFinite(value)) throw new EngramError('EMBEDDING_INVALID', `${model} returned a vector with a non-finite value at ${i}`);
    norm += value * value;
  }
  norm = Math.sqrt(norm);
  const vector = new Float32Array(dimensions);
  // An all-zero vector (an empty text through a bag-of-words model) stays zero: it is like nothing.
  for (let i = 0; i < dimensions; i++) vector[i] = norm > 0 ? values[i]! / norm : 0;
  return vector;
}

/** Cosine of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
