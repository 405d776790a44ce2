import type { Embedder } from '../../indexes/embedder.js';
import { VectorStore } from '../../indexes/vector-store.js';
import { memoriesProjector, type MemoriesRow } from '../memories/memories.js';
import { defineProjector, type Projection, type Projector } from '../projector.js';
import { VectorsSink } from './vectors-sink.js';

/** Bump when the vectors change for the same rows and model (the indexed text, the table's columns). */
const VECTORS_VERSION = 1;

/**
 * The vectors: the memories projection's own rows (its `evolve`, so which memory is active is
 * decided in one place) under a lane of its own, whose sink embeds them into LanceDB. Its
 * projectorVersion follows the rows, the vectors and the model, so changing the model starts
 * this lane over alone (from the embedding cache where the model was used before) and no other
 * projection waits for it.
 */
export function vectorsProjector(model: string): Projector<MemoriesRow> {
  return defineProjector<MemoriesRow>({
    ...memoriesProjector,
    name: 'vectors',
    projectorVersion: (memoriesProjector.projectorVersion * 1000 + VECTORS_VERSION) * 1_000_000 + modelCode(model),
  });
}

export interface VectorsSetup {
  /** `<ENGRAM_HOME>/vectors`: the LanceDB directory, one table per model. */
  dir: string;
  /** The embedder, with the embedding cache in front of it. */
  embedder: Embedder;
  /** The model's table, when recall shares it. Default: one of the sink's own. */
  store?: VectorStore;
  /** Rows changed between two compactions of the table. Default 1000. */
  optimizeEvery?: number;
}

export function vectorsProjection(setup: VectorsSetup): Projection<MemoriesRow> {
  const { embedder } = setup;
  const store = setup.store ?? new VectorStore({ dir: setup.dir, model: embedder.model, dimensions: embedder.dimensions });
  return { projector: vectorsProjector(embedder.model), sink: new VectorsSink({ store, embedder, optimizeEvery: setup.optimizeEvery }) };
}

/** A number in [0, 1e6) for a model id (FNV-1a), stable across runs and machines. */
function modelCode(model: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < model.length; i++) {
    hash ^= model.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 1_000_000;
}
