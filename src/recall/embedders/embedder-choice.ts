import * as z from 'zod/mini';
import { EngramError } from '../../errors.js';
import type { EngramPaths } from '../../paths.js';
import type { Embedder } from '../../indexes/embedder.js';
import { fastembedEmbedder } from './fastembed-embedder.js';
import { useLiteEmbedder, WARM_UP_CALLS } from './use-lite-embedder.js';

/**
 * Which embedder the vectors projection and recall use. `use-lite`: Universal Sentence Encoder
 * Lite, inside the npm package, no download. `bge-small`: BGE-small-en-v1.5 through the optional
 * fastembed, from `<ENGRAM_HOME>/models`. `off`: no vectors projection at all.
 */
export const EMBEDDER_CHOICES = ['use-lite', 'bge-small', 'off'] as const;
export type EmbedderChoice = (typeof EMBEDDER_CHOICES)[number];

const choiceShape = z.enum(EMBEDDER_CHOICES);

/** `ENGRAM_EMBEDDER`; default `use-lite`. Anything else is a USAGE error naming the choices. */
export function embedderChoice(env: NodeJS.ProcessEnv = process.env): EmbedderChoice {
  const raw = env.ENGRAM_EMBEDDER;
  if (raw === undefined || raw === '') return 'use-lite';
  const parsed = choiceShape.safeParse(raw);
  if (!parsed.success) {
    throw new EngramError('USAGE', `ENGRAM_EMBEDDER is ${JSON.stringify(raw)}; it may be ${EMBEDDER_CHOICES.join(', ')}`, { cause: parsed.error });
  }
  return parsed.data;
}

/**
 * The embedder chosen (not loaded: each loads its model on first use); undefined for `off`.
 * `warm`: a process that answers prompt after prompt (the worker): USE Lite warms its thread
 * before it says it is loaded (use-lite-embedder.ts WARM_UP_CALLS). `onLoaded`: told at each load
 * what runs the model (USE Lite: onnxruntime's native kernels, or TensorFlow.js on WASM).
 */
export function embedderFor(choice: EmbedderChoice, paths: Pick<EngramPaths, 'models'>, options: { warm?: boolean; onLoaded?: (kernel: string) => void } = {}): Embedder | undefined {
  switch (choice) {
    case 'use-lite':
      return useLiteEmbedder({ ...(options.warm ? { warmUp: WARM_UP_CALLS } : {}), onLoaded: options.onLoaded });
    case 'bge-small':
      return fastembedEmbedder({ modelsDir: paths.models });
    case 'off':
      return undefined;
  }
}
