import type { Embedder } from '../../indexes/embedder.js';

/** An embedder that lets go of its model when unused for a while. */
export interface IdleUnloading extends Embedder {
  /** Whether the model is in memory now (the wrapped embedder's `loaded`, true when it cannot say). */
  loaded(): boolean;
  /** How long unused before the model is let go, in ms. */
  readonly idleMs: number;
  /** How many times it was let go so far. */
  unloads(): number;
}

/**
 * The worker keeps the model only while recall or indexing uses it (DESIGN.md: ≤ 100 MB without
 * it): `idleMs` after the last `embed` ended, with none running, the model is closed; the next
 * `embed` loads it again (the prompt hook is answered without vectors meanwhile, as at start).
 * The timer never keeps the process alive.
 */
export function unloadWhenIdle(embedder: Embedder, options: { idleMs: number; onUnload?: () => void }): IdleUnloading {
  let running = 0;
  let unloads = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (running > 0 || embedder.loaded?.() === false) return;
      void embedder.close().then(() => {
        unloads++;
        options.onUnload?.();
      }, () => undefined);
    }, options.idleMs);
    timer.unref();
  };
  return {
    model: embedder.model,
    dimensions: embedder.dimensions,
    idleMs: options.idleMs,
    async embed(texts, signal) {
      running++;
      if (timer) clearTimeout(timer);
      try {
        return await embedder.embed(texts, signal);
      } finally {
        running--;
        if (running === 0) arm();
      }
    },
    async close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await embedder.close();
    },
    loaded: () => embedder.loaded?.() ?? true,
    kernel: () => embedder.kernel?.(),
    modelRssMb: () => embedder.modelRssMb?.(),
    unloads: () => unloads,
  };
}
