import { linearFusion, maxNormFusion, reciprocalRankFusion, type Fused, type SignalList } from './fusion.js';
import type { RecallSettings } from './recall-settings.js';

/** The vector signal's name: the gate holds its list to a floor when nothing else fired. */
export const VECTOR_SIGNAL = 'vector';

/**
 * Recall's signals fused into one ranking as `settings` say: weighted RRF, min-max or max-norm
 * linear fusion. Ranking only: nothing is dropped here (the gate, gate-recall.ts, decides what
 * the prompt hook injects). A signal whose weight is 0 does not rank. Pure.
 */
export function fuseSignals(lists: readonly SignalList[], settings: Pick<RecallSettings, 'method' | 'k' | 'weights'>): Fused[] {
  const weighed = lists.filter((list) => (settings.weights[list.signal] ?? 1) > 0);
  if (settings.method === 'rrf') return reciprocalRankFusion(weighed, { k: settings.k, weights: settings.weights });
  return settings.method === 'max' ? maxNormFusion(weighed, { weights: settings.weights }) : linearFusion(weighed, { weights: settings.weights });
}
