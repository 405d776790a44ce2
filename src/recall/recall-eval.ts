import { finalCut, type CutOptions, type Fused, type SignalList } from './fusion.js';

/**
 * Retrieval metrics for recall (`npm run eval`): a ranker is anything that answers a query with
 * memories best first, already cut by its own thresholds, so an empty answer means "recall
 * nothing". Signals (BM25, vectors, graph) and fused pipelines are rankers alike, which is what
 * lets the evaluation take whatever signals exist.
 */

export interface EvalQuery {
  readonly id: string;
  readonly text: string;
  /** The project the prompt is typed in (its memories and the global ones are candidates). */
  readonly project: string;
  /** Memory ids that answer it; none: it should recall nothing. */
  readonly relevant: readonly string[];
  /** lexical, paraphrase, entity, none: how the query relates to its answer, for per-kind figures. */
  readonly kind: string;
}

export type Ranked = SignalList['items'];

export interface Ranker {
  readonly name: string;
  rank(query: EvalQuery): Ranked | Promise<Ranked>;
}

export interface Metrics {
  /** Queries with an answer. */
  readonly answerable: number;
  /** Share of those whose first result is relevant. */
  readonly hit1: number;
  /** …with a relevant one among the first three. */
  readonly hit3: number;
  /** Mean of 1 / rank of the first relevant result (0 when none is returned). */
  readonly mrr: number;
  /** Queries that should recall nothing. */
  readonly unanswerable: number;
  /** Share of those for which something was recalled anyway. */
  readonly falseRecall: number;
}

/** The metrics of `ranker` over `queries`. */
export async function evaluate(queries: readonly EvalQuery[], ranker: Ranker): Promise<Metrics> {
  let answerable = 0;
  let hit1 = 0;
  let hit3 = 0;
  let rr = 0;
  let unanswerable = 0;
  let falseRecall = 0;
  for (const query of queries) {
    const ranked = await ranker.rank(query);
    if (query.relevant.length === 0) {
      unanswerable++;
      if (ranked.length > 0) falseRecall++;
      continue;
    }
    answerable++;
    const relevant = new Set(query.relevant);
    const first = ranked.findIndex((item) => relevant.has(item.id));
    if (first === 0) hit1++;
    if (first >= 0 && first < 3) hit3++;
    if (first >= 0) rr += 1 / (first + 1);
  }
  const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
  return { answerable, hit1: share(hit1, answerable), hit3: share(hit3, answerable), mrr: share(rr, answerable), unanswerable, falseRecall: share(falseRecall, unanswerable) };
}

/**
 * A recall pipeline as a ranker: its signals' lists fused by `fuse`, then the final cut (times
 * strength, half the best, top 3, unless `cut` says otherwise).
 */
export function pipelineRanker(options: {
  name: string;
  signals: readonly Ranker[];
  fuse: (lists: readonly SignalList[]) => Fused[];
  strengthOf: (id: string) => number;
  cut?: CutOptions;
}): Ranker {
  return {
    name: options.name,
    async rank(query) {
      const lists: SignalList[] = [];
      for (const signal of options.signals) lists.push({ signal: signal.name, items: await signal.rank(query) });
      return finalCut(options.fuse(lists), options.strengthOf, options.cut);
    },
  };
}

/** One line of the evaluation's table. */
export function metricsRow(name: string, m: Metrics, width = 40): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}`.padStart(6);
  return `${name.padEnd(width)} ${pct(m.hit1)} ${pct(m.hit3)} ${m.mrr.toFixed(3).padStart(7)} ${pct(m.falseRecall)}   (${m.answerable} answerable, ${m.unanswerable} none)`;
}

export const METRICS_HEADER = `${'ranker'.padEnd(40)} ${'hit@1'.padStart(6)} ${'hit@3'.padStart(6)} ${'MRR'.padStart(7)} ${'false'.padStart(6)}`;
