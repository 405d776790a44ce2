import { linearFusion, reciprocalRankFusion, type Fused, type SignalList } from './fusion.js';
import type { RecallSettings } from './recall-settings.js';

/** The signal whose list is gated by `vectorAloneFloor`. */
export const VECTOR_SIGNAL = 'vector';

/**
 * Recall's signals fused as `settings` say (before the final cut): vectors on their own must
 * clear the floor, then the lists are fused by weighted RRF or min-max linear fusion. Pure.
 */
export function fuseSignals(lists: readonly SignalList[], settings: Pick<RecallSettings, 'method' | 'k' | 'weights' | 'vectorAloneFloor'>): Fused[] {
  const othersFired = lists.some((list) => list.signal !== VECTOR_SIGNAL && list.items.length > 0);
  const gated = othersFired
    ? lists
    : lists.map((list) => (list.signal === VECTOR_SIGNAL ? { ...list, items: list.items.filter((item) => item.score >= settings.vectorAloneFloor) } : list));
  return settings.method === 'rrf' ? reciprocalRankFusion(gated, { k: settings.k, weights: settings.weights }) : linearFusion(gated, { weights: settings.weights });
}
