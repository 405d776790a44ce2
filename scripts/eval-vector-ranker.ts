// The vector signal of `npm run eval`: the fixtures' memories embedded as the vectors projection
// embeds them (indexedText: name, description, body, graph entity names), through the embedding
// cache, ranked per query by cosine over the query's project and the global memories.
import { EngramError } from '../src/errors.js';
import { cosine, type Embedder } from '../src/indexes/embedder.js';
import { indexedText } from '../src/projections/vectors/indexed-text.js';
import type { EvalQuery, Ranker } from '../src/recall/recall-eval.js';
import { dirsFor, type EvalSet } from './recall-eval-set.js';

/** Memories a query's vector list holds at most (search-vectors.ts's default). */
export const VECTOR_LIST_LENGTH = 10;

/**
 * Embeds every memory of the set and every query text once (the cache makes a second run read
 * them back), then answers from memory: the eval's grid asks each query hundreds of times.
 * Scores are cosines; no floor here, the fusion applies the calibrated one.
 */
export async function vectorRanker(set: EvalSet, embedder: Embedder, queries: readonly EvalQuery[]): Promise<Ranker> {
  const docs = [...set.dirs].flatMap(([slug, dirDocs]) => dirDocs.map((doc) => ({ slug, doc })));
  const texts = docs.map(({ doc }) => indexedText({ name: doc.name, description: doc.description, body: doc.body, graph: set.graphs.get(doc.id) }));
  const memoryVectors = await embedder.embed(texts);
  const bySlug = new Map<string, Array<{ id: string; vector: Float32Array }>>();
  docs.forEach(({ slug, doc }, i) => {
    const list = bySlug.get(slug) ?? [];
    list.push({ id: doc.id, vector: memoryVectors[i]! });
    bySlug.set(slug, list);
  });
  const queryTexts = [...new Set(queries.map((q) => q.text))];
  const queryVectors = new Map(queryTexts.map((text, i) => [text, i] as const));
  const embedded = await embedder.embed(queryTexts);
  return {
    name: 'vector',
    rank(query) {
      const at = queryVectors.get(query.text);
      if (at === undefined) throw new EngramError('USAGE', `query ${query.id} was not among the queries the vector ranker was built for`);
      const vector = embedded[at]!;
      return dirsFor(query.project)
        .flatMap((slug) => bySlug.get(slug) ?? [])
        .map(({ id, vector: memory }) => ({ id, score: cosine(vector, memory) }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, VECTOR_LIST_LENGTH);
    },
  };
}
