import type { Embedder } from '../indexes/embedder.js';
import type { VectorHit } from '../indexes/vector-hit.js';
import type { VectorStore } from '../indexes/vector-store.js';
import type { QueryVectors } from './query-vectors.js';

export interface VectorSearchOptions {
  /** The project whose memories are searched, beside the global ones ('' for global only). */
  project: string;
  /** How many memories at most. Default 10. */
  limit?: number;
  signal?: AbortSignal;
  /** The embeddings of recent queries, kept (query-vectors.ts). Default none: the query is embedded. */
  queries?: QueryVectors;
}

/**
 * The vector list of recall: the active memories of the project and the global ones, nearest
 * the query first, each with its cosine. No threshold here: on the embedded model absolute
 * cosines carry little signal (DESIGN.md "Recall"), so the fusion decides by rank or by a
 * floor calibrated on the evaluation set.
 */
export async function searchVectors(
  vectors: { store: VectorStore; embedder: Embedder },
  query: string,
  options: VectorSearchOptions,
): Promise<VectorHit[]> {
  if (vectors.store.model !== vectors.embedder.model) {
    throw new Error(`the vector store is of ${vectors.store.model}, the query embedder is ${vectors.embedder.model}`);
  }
  if (query.trim().length === 0) return [];
  // The table is checked (its mirror read, the first time) while the query embeds in the model's thread, not after.
  const searcher = vectors.store.searcher();
  const vector = options.queries ? await options.queries.vectorOf(query) : (await vectors.embedder.embed([query], options.signal))[0]!;
  return (await searcher)(vector, { project: options.project, limit: options.limit ?? 10 });
}
