import type { Embedder } from './embedders/embedder.js';
import type { RecallSignal } from './recall.js';
import { searchVectors } from './search-vectors.js';
import type { VectorStore } from './vector-store.js';

/** Recall's vector list: the memories nearest the prompt, by rank (the fusion ignores absolute cosines). */
export function vectorSignal(vectors: { store: VectorStore; embedder: Embedder }): RecallSignal {
  return {
    name: 'vector',
    async rank(question, limit) {
      const hits = await searchVectors(vectors, question.text, { project: question.project, limit });
      return hits.map((hit) => ({ id: hit.id, score: hit.cosine }));
    },
  };
}
