import { DEFAULT_CUT, finalCut, type CutOptions, type Fused } from './fusion.js';

/**
 * The gate (DESIGN.md "Recall": ranking and gating are two steps): given the ranking, should the
 * prompt hook inject anything, and which few. Calibrated for false recall on prompts nothing
 * answers (`npm run eval`), separately from the ranking. Pure.
 *
 * A ranked memory may be injected when the prompt names it closely enough: it shares the rule's
 * number of the prompt's words (requiredShared), or the graph found an entity of the prompt in it,
 * or, once one of those opened the gate, the vectors found it; when neither opened it, vectors
 * alone must clear `vectorAloneFloor` (a vector list is never empty). The eligible memories keep
 * their ranking order and are cut (strength, a share of the best, the top few).
 */

/** A memory as the ranking ordered it, with what the gate weighs. */
export interface RankedCandidate extends Fused {
  /** How many of the prompt's words it shares (0: BM25 did not find it). */
  readonly shared: number;
  /** Its cosine to the prompt, when the vector signal found it. */
  readonly cosine?: number;
}

export interface GateOptions {
  /** Shared words a lexical match needs (requiredShared of the prompt's word count). */
  readonly need: number;
  /** The cosine vectors alone must reach. */
  readonly vectorAloneFloor: number;
  readonly cut: CutOptions;
}

export function gateRecall(ranked: readonly RankedCandidate[], strengthOf: (id: string) => number, options: GateOptions): Fused[] {
  const lexical = (item: RankedCandidate) => item.shared >= options.need;
  const graph = (item: RankedCandidate) => item.signals.includes('graph');
  const open = ranked.some((item) => lexical(item) || graph(item));
  const eligible = ranked.filter(
    (item) => lexical(item) || graph(item) || (item.cosine !== undefined && (open || item.cosine >= options.vectorAloneFloor)),
  );
  return finalCut(eligible, strengthOf, { ...DEFAULT_CUT, ...options.cut });
}
