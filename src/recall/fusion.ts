/**
 * Fusing the ranked lists of recall's signals (BM25, vectors, graph) into one, and the final cut
 * (DESIGN.md "Recall"). Pure. Two fusions, both kept so the evaluation can show the choice:
 * weighted reciprocal-rank fusion (plain RRF is its equal-weights case, the seed's baseline) and
 * min-max-normalised linear fusion. With a weak signal beside a strong one, equal weights let
 * the weak one's noise outvote the strong one; weights are chosen on the evaluation set.
 */

/** One signal's answer: memories best first, each with the signal's own score. */
export interface SignalList {
  /** `bm25`, `vector`, `graph`…: what the printed line names when it fired. */
  readonly signal: string;
  readonly items: ReadonlyArray<{ readonly id: string; readonly score: number }>;
}

export interface Fused {
  readonly id: string;
  readonly score: number;
  /** The signals whose lists hold it, in the order the lists were given. */
  readonly signals: readonly string[];
}

/** A weight per signal; a signal not named weighs 1. */
export type SignalWeights = Readonly<Record<string, number>>;

export interface RrfOptions {
  /** Rank damping: a larger k flattens the difference between ranks. Default 60 (the seed's). */
  readonly k?: number;
  /** Default: every signal 1, which is plain RRF. */
  readonly weights?: SignalWeights;
}

export const DEFAULT_RRF_K = 60;

/** Σ weight / (k + rank), rank from 1. Best first, ties by id. */
export function reciprocalRankFusion(lists: readonly SignalList[], options: RrfOptions = {}): Fused[] {
  const k = options.k ?? DEFAULT_RRF_K;
  return fuse(lists, (list) => {
    const weight = options.weights?.[list.signal] ?? 1;
    return list.items.map((item, i) => weight / (k + i + 1));
  });
}

/** The seed's baseline: equal weights, k = 60. */
export function plainRrf(lists: readonly SignalList[]): Fused[] {
  return reciprocalRankFusion(lists);
}

export interface LinearOptions {
  /** Default: every signal 1. */
  readonly weights?: SignalWeights;
}

/**
 * Σ weight × (score − min) / (max − min) over each list's own scores, so signals on different
 * scales (BM25 sums, cosines) add up. A list whose scores are all equal gives each of its
 * memories 1: being on it is all it says.
 */
export function linearFusion(lists: readonly SignalList[], options: LinearOptions = {}): Fused[] {
  return fuse(lists, (list) => {
    const weight = options.weights?.[list.signal] ?? 1;
    const scores = list.items.map((item) => item.score);
    const min = Math.min(...scores);
    const span = Math.max(...scores) - min;
    return scores.map((score) => weight * (span > 0 ? (score - min) / span : 1));
  });
}

/**
 * Σ weight × score / max over each list's own scores (max-normalised): unlike min-max, a list's
 * last item keeps what its score says rather than 0, and a list of near-equal scores (cosines of
 * a weak embedder) stays near-equal instead of being stretched over 0–1. On real conversations
 * (LoCoMo's dev half) it beat both min-max and RRF. A list with no positive score gives its items 0.
 */
export function maxNormFusion(lists: readonly SignalList[], options: LinearOptions = {}): Fused[] {
  return fuse(lists, (list) => {
    const weight = options.weights?.[list.signal] ?? 1;
    const max = Math.max(0, ...list.items.map((item) => item.score));
    return list.items.map((item) => (max > 0 ? (weight * Math.max(0, item.score)) / max : 0));
  });
}

export interface CutOptions {
  /** Keep what scores at least this share of the best. Default 0.5 (DESIGN.md: half the best). */
  readonly ratio?: number;
  /** At most this many. Default 3. */
  readonly limit?: number;
  /**
   * How much strength counts: the fused score is multiplied by strength to this power. Default 1
   * (DESIGN.md: multiplied by strength); 0 ignores strength. Rank fusions give scores that differ
   * little between ranks, so at 1 a strong but loosely matching memory can outrank the match.
   */
  readonly strengthExponent?: number;
}

export const DEFAULT_CUT = Object.freeze({ ratio: 0.5, limit: 3, strengthExponent: 1 });

/**
 * The final list: each fused score multiplied by the memory's strength (confidence, decayed) to
 * the power `strengthExponent`, then what falls below `ratio` of the best dropped, then the top
 * `limit`. A memory with no
 * strength (0) is never recalled.
 */
export function finalCut(fused: readonly Fused[], strengthOf: (id: string) => number, options: CutOptions = {}): Fused[] {
  const ratio = options.ratio ?? DEFAULT_CUT.ratio;
  const limit = options.limit ?? DEFAULT_CUT.limit;
  const exponent = options.strengthExponent ?? DEFAULT_CUT.strengthExponent;
  const weighed = fused
    .map((item) => {
      const strength = strengthOf(item.id);
      return { ...item, score: strength > 0 ? item.score * strength ** exponent : 0 };
    })
    .filter((item) => item.score > 0)
    .sort(byScore);
  const best = weighed[0]?.score ?? 0;
  return weighed.filter((item) => item.score >= ratio * best).slice(0, limit);
}

function fuse(lists: readonly SignalList[], contributions: (list: SignalList) => number[]): Fused[] {
  const merged = new Map<string, { score: number; signals: string[] }>();
  for (const list of lists) {
    const shares = contributions(list);
    const seen = new Set<string>();
    list.items.forEach((item, i) => {
      // A list naming a memory twice counts it once, at its better rank.
      if (seen.has(item.id)) return;
      seen.add(item.id);
      const entry = merged.get(item.id);
      if (entry) {
        entry.score += shares[i]!;
        if (!entry.signals.includes(list.signal)) entry.signals.push(list.signal);
      } else merged.set(item.id, { score: shares[i]!, signals: [list.signal] });
    });
  }
  return [...merged].map(([id, { score, signals }]) => ({ id, score, signals })).sort(byScore);
}

function byScore(a: Fused, b: Fused): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
