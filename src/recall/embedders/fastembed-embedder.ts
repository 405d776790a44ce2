import { join } from 'node:path';
import { EngramError } from '../../errors.js';
import { checkedVector, throwIfAborted, type Embedder } from '../../indexes/embedder.js';

/** BGE-small-en-v1.5 through fastembed: CLS pooling, 384-d. */
export const BGE_SMALL_MODEL = 'bge-small-en-v1.5';
/** fastembed's own name for it, which is also its folder under the models directory. */
const FASTEMBED_NAME = 'fast-bge-small-en-v1.5';
const DIMENSIONS = 384;

export interface FastembedOptions {
  /**
   * Where model folders live: `<modelsDir>/fast-bge-small-en-v1.5/` (model_optimized.onnx,
   * tokenizer.json, config.json, tokenizer_config.json, special_tokens_map.json). fastembed
   * fetches the folder there on first use when it is missing and the network allows.
   */
  modelsDir: string;
  /** Texts per model call. Default 16. */
  batchSize?: number;
}

/** The folder fastembed loads BGE-small from, under a models directory. */
export function bgeSmallDir(modelsDir: string): string {
  return join(modelsDir, FASTEMBED_NAME);
}

interface FlagModel {
  embed(texts: string[], batchSize?: number): AsyncGenerator<ArrayLike<number>[]>;
}

/** What engram uses of fastembed; declared here so the build needs no types of an optional package. */
interface FastembedModule {
  FlagEmbedding: { init(options: { model: string; cacheDir: string; showDownloadProgress: boolean }): Promise<FlagModel> };
  EmbeddingModel: { BGESmallENV15: string };
}

// A specifier in a variable: neither tsc nor a bundler tries to resolve the optional package.
const FASTEMBED = 'fastembed';

/**
 * fastembed is an optional dependency (its onnxruntime-node is large and its install may fetch
 * CUDA files): it is imported on the first `embed`, and its absence is an EMBEDDER_UNAVAILABLE
 * error that says how to get it, never a crash at start.
 */
export function fastembedEmbedder(options: FastembedOptions): Embedder {
  const batchSize = options.batchSize ?? 16;
  let ready = false;
  let loading: Promise<FlagModel> | undefined;
  const load = (): Promise<FlagModel> => {
    loading ??= (async () => {
      let fastembed: FastembedModule;
      try {
        fastembed = (await import(FASTEMBED)) as FastembedModule;
      } catch (err) {
        loading = undefined;
        throw new EngramError(
          'EMBEDDER_UNAVAILABLE',
          `${BGE_SMALL_MODEL} needs the optional package fastembed, which is not installed (npm install fastembed; ONNXRUNTIME_NODE_INSTALL_CUDA=skip avoids fetching CUDA files)`,
          { cause: err },
        );
      }
      try {
        const model = await fastembed.FlagEmbedding.init({
          model: fastembed.EmbeddingModel.BGESmallENV15,
          cacheDir: options.modelsDir,
          showDownloadProgress: false,
        });
        ready = true;
        return model;
      } catch (err) {
        loading = undefined;
        throw new EngramError('EMBEDDER_UNAVAILABLE', `${BGE_SMALL_MODEL} could not be loaded from ${bgeSmallDir(options.modelsDir)}`, { cause: err });
      }
    })();
    return loading;
  };
  return {
    model: BGE_SMALL_MODEL,
    dimensions: DIMENSIONS,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const model = await load();
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        throwIfAborted(signal);
        const batch = texts.slice(start, start + batchSize);
        // fastembed's generator yields one array of vectors per batch it was given.
        for await (const vectors of model.embed(batch, batchSize)) {
          for (const vector of vectors) out.push(checkedVector(BGE_SMALL_MODEL, DIMENSIONS, vector));
        }
      }
      if (out.length !== texts.length) throw new EngramError('EMBEDDING_INVALID', `${BGE_SMALL_MODEL} returned ${out.length} vectors for ${texts.length} texts`);
      return out;
    },
    async close() {
      loading = undefined;
      ready = false;
    },
    loaded: () => ready,
  };
}
