import type { SignalWeights } from './fusion.js';

/**
 * How recall fuses its signals and cuts the list: the one place the recall pipeline
 * (src/recall/recall.ts) reads its fusion from. Every value was chosen by `npm run eval` on the
 * dev half of fixtures/recall/ with the USE Lite embedder (the best hit@3, then MRR, among the
 * settings whose false recall on no-answer queries stays ≤ 10 %) and is reported there on the
 * test half; rerun it and change this constant together when the embedder, the analyser or the
 * set changes.
 */
export interface RecallSettings {
  /**
   * `rrf`: Σ weight / (k + rank); `linear`: Σ weight × min-max-normalised score
   * (src/recall/fusion.ts).
   */
  readonly method: 'rrf' | 'linear';
  /** RRF's rank damping (unused by `linear`). */
  readonly k: number;
  /** Weight per signal name (`bm25`, `vector`, `graph`); a signal not named weighs 1. */
  readonly weights: SignalWeights;
  /**
   * When neither BM25 nor the graph found anything, vector hits below this cosine are dropped:
   * a vector list is never empty, so without a floor every prompt would recall something.
   * When another signal fired, the vector list is fused whole (by rank or normalised score),
   * since absolute cosines of this model separate right from wrong poorly.
   */
  readonly vectorAloneFloor: number;
  /** The final cut (fusion.ts `finalCut`). */
  readonly cut: {
    /** Keep what scores at least this share of the best. */
    readonly ratio: number;
    /** At most this many. */
    readonly limit: number;
    /** The fused score is multiplied by strength to this power. */
    readonly strengthExponent: number;
  };
}

export const RECALL_SETTINGS: RecallSettings = Object.freeze({
  method: 'linear',
  k: 60,
  weights: Object.freeze({ bm25: 1, vector: 1, graph: 0.5 }),
  vectorAloneFloor: 0.6,
  cut: Object.freeze({ ratio: 0.5, limit: 3, strengthExponent: 0 }),
});
