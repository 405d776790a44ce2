import type { Embedder } from '../indexes/embedder.js';

/** How many prompts' vectors are kept: a few KB each. */
const KEPT = 64;

/**
 * The embedding of the last few texts asked, by the embedder's model, newest last: a prompt
 * asked again (the agent repeating an MCP search, `engram query --batch` with the same
 * question, a prompt sent twice) is not embedded again, and two asks of the same text at once
 * share one embedding. The embedding is most of what a recall with vectors costs (≈ 6–35 ms of
 * USE Lite against a few ms for everything else, docs/performance.md).
 */
export class QueryVectors {
  readonly #embedder: Embedder;
  readonly #kept = new Map<string, Promise<Float32Array>>();

  constructor(embedder: Embedder) {
    this.#embedder = embedder;
  }

  vectorOf(text: string): Promise<Float32Array> {
    const kept = this.#kept.get(text);
    if (kept) {
      // Used again: newest.
      this.#kept.delete(text);
      this.#kept.set(text, kept);
      return kept;
    }
    const vector = this.#embedder.embed([text]).then(([v]) => v!);
    this.#kept.set(text, vector);
    // A failed embedding is not kept: the next ask tries again.
    vector.catch(() => {
      if (this.#kept.get(text) === vector) this.#kept.delete(text);
    });
    while (this.#kept.size > KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    return vector;
  }
}
