import type { EngramPaths } from '../paths.js';
import type { Embedder } from '../indexes/embedder.js';
import { recall, type RecallRequest, type RecallResult, type RecallSignal } from './recall.js';
import { RECALL_SETTINGS, type RecallSettings } from './recall-settings.js';
import { RecallIndexCache } from './recall-indexes.js';
import { graphSignal } from './graph-signal.js';
import { vectorSignal, type VectorSignalOptions } from './vector-signal.js';
import type { VectorStore } from '../indexes/vector-store.js';

export interface RecallerOptions {
  paths: Pick<EngramPaths, 'views' | 'claude'>;
  /** The vectors table and the query embedder (engine.services.vectors, see composition/open-engine.ts). Default none: no vector list. */
  vectors?: { store: VectorStore; embedder: Embedder } | undefined;
  /** More signals beside the vectors and the graph (which it reads from the graph projection's files). Default none. */
  signals?: readonly RecallSignal[];
  /** Default RECALL_SETTINGS. */
  settings?: RecallSettings;
  /** How the vector list behaves while the model loads (see VectorSignalOptions). Default: it waits. */
  whileLoading?: VectorSignalOptions;
}

/**
 * recall() kept warm, for a process that answers many prompts (the worker, `engram query
 * --batch`): vectors, graph and BM25; the index files stay open and are reopened when rewritten, the model stays loaded.
 */
export class Recaller {
  readonly #indexes: RecallIndexCache;
  readonly #signals: readonly RecallSignal[];
  readonly #settings: RecallSettings;

  constructor(options: RecallerOptions) {
    this.#indexes = new RecallIndexCache(options.paths);
    this.#signals = [...(options.vectors ? [vectorSignal(options.vectors, options.whileLoading)] : []), graphSignal(options.paths.views), ...(options.signals ?? [])];
    this.#settings = options.settings ?? RECALL_SETTINGS;
  }

  ask(request: RecallRequest): Promise<RecallResult> {
    const indexes = this.#indexes;
    return recall(
      { indexes: indexes.indexes(request.project), signals: this.#signals, card: (id) => indexes.card(request.project, id) },
      request,
      this.#settings,
    );
  }

  /** Closes the index files; the vectors belong to whoever passed them. */
  close(): void {
    this.#indexes.close();
  }
}
