import type { Embedder } from '../indexes/embedder.js';
import type { RecallSignal } from './recall.js';
import { QueryVectors } from './query-vectors.js';
import { searchVectors } from './search-vectors.js';
import type { VectorStore } from '../indexes/vector-store.js';

export interface VectorSignalOptions {
  /**
   * While the model is not in memory (the worker just started, or let it go), rank nothing and
   * start loading it, instead of making the question wait for the load: the prompt hook waits
   * 150 ms, a load takes seconds, and BM25 and the graph answer at once. Default false (`engram
   * query` waits: it asked for the whole pipeline).
   */
  skipWhileLoading?: boolean;
  /** Told once per question answered without vectors because the model was loading. */
  onSkipped?: () => void;
}

/** Recall's vector list: the memories nearest the prompt, by rank (the fusion ignores absolute cosines). */
export function vectorSignal(vectors: { store: VectorStore; embedder: Embedder }, options: VectorSignalOptions = {}): RecallSignal {
  const queries = new QueryVectors(vectors.embedder);
  return {
    name: 'vector',
    async rank(question, limit) {
      if (options.skipWhileLoading && vectors.embedder.loaded?.() === false) {
        // Loads once however many questions ask meanwhile (the embedder keeps one load).
        void vectors.embedder.embed([' ']).catch(() => undefined);
        // And the table's mirror is read meanwhile, so the first search after the load finds it.
        void vectors.store.prepare();
        options.onSkipped?.();
        return [];
      }
      const hits = await searchVectors(vectors, question.text, { project: question.project, limit, queries });
      return hits.map((hit) => ({ id: hit.id, score: hit.cosine }));
    },
  };
}
