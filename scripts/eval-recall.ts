// `npm run eval`: recall quality on the evaluation set in fixtures/recall/ (see
// generate-recall-fixtures.ts). Thresholds are chosen on the dev half and reported on the test
// half. Each signal is a ranker; a signal someone adds (vectors, graph) goes in `signals` below
// and the fused pipelines take it in, with the plain-RRF variant kept so the choice stays visible.
//   npm run eval [-- --root DIR]
import { resolve } from 'node:path';
import { DEFAULT_MATCH_RULE, type MatchRule } from '../src/recall/bm25.js';
import { DEFAULT_CUT, linearFusion, plainRrf, reciprocalRankFusion, type CutOptions, type Fused, type SignalList } from '../src/recall/fusion.js';
import { buildBm25 } from '../src/recall/bm25.js';
import { LexicalIndexFile, searchIndexes, serializeLexicalIndex } from '../src/recall/lexical-index.js';
import { canRecall, queryWords } from '../src/recall/query-words.js';
import { evaluate, METRICS_HEADER, metricsRow, pipelineRanker, type EvalQuery, type Metrics, type Ranker } from '../src/recall/recall-eval.js';
import { dirsFor, loadEvalSet, type EvalSet } from './recall-eval-set.js';
import { graphRanker } from './graph-eval-signal.js';

/** Strength is scored as of this time, as the set's dates were written for it. */
const EVAL_NOW = new Date('2026-12-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

export interface EvalReport {
  /** The parameters chosen on dev. */
  readonly chosen: { rule: MatchRule; ratio: number };
  /** Lines to print. */
  readonly lines: string[];
}

/** Each directory's index file, as the projection writes it and the hook's fallback reads it. */
export function indexFiles(set: EvalSet): Map<string, LexicalIndexFile> {
  const files = new Map<string, LexicalIndexFile>();
  for (const [slug, docs] of set.dirs) {
    const text = serializeLexicalIndex(buildBm25(docs), { dir: slug, project: slug, asOf: EVAL_NOW.toISOString() });
    files.set(slug, LexicalIndexFile.fromBytes(Buffer.from(text)));
  }
  return files;
}

/** BM25 over the project's and the global index files. */
export function bm25Ranker(files: ReadonlyMap<string, LexicalIndexFile>, rule: MatchRule = DEFAULT_MATCH_RULE): Ranker {
  return {
    name: 'bm25',
    rank(query: EvalQuery) {
      const words = queryWords(query.text);
      if (!canRecall(words)) return [];
      const indexes = dirsFor(query.project).flatMap((slug) => files.get(slug) ?? []);
      return searchIndexes(indexes, words, { rule }).map((match) => ({ id: match.id, score: match.score }));
    },
  };
}

/** confidence × 2^(−days / half-life) as of EVAL_NOW, from what the index keeps. */
export function strengths(set: EvalSet): (id: string) => number {
  const byId = new Map<string, number>();
  for (const docs of set.dirs.values()) {
    for (const doc of docs) {
      const days = Math.max(0, (EVAL_NOW.getTime() - Date.parse(doc.lastReinforced)) / DAY_MS) || 0;
      byId.set(doc.id, doc.confidence * (doc.halfLifeDays === null ? 1 : 2 ** (-days / doc.halfLifeDays)));
    }
  }
  return (id) => byId.get(id) ?? 0;
}

/** The signals DESIGN.md's recall fuses: each gets a line, built or not, so a missing one shows. */
const SIGNAL_SLOTS = ['bm25', 'vector', 'graph'];

/** The fusions the evaluation compares; weights per signal name (a missing signal is ignored). */
const FUSIONS: ReadonlyArray<{ name: string; fuse: (lists: readonly SignalList[]) => Fused[] }> = [
  { name: 'plain RRF (k 60)', fuse: plainRrf },
  { name: 'weighted RRF (vector 0.15)', fuse: (lists) => reciprocalRankFusion(lists, { k: 60, weights: { vector: 0.15 } }) },
  { name: 'linear min-max (vector 0.4)', fuse: (lists) => linearFusion(lists, { weights: { vector: 0.4 } }) },
  { name: 'weighted RRF (vector 0.15, graph 0.5)', fuse: (lists) => reciprocalRankFusion(lists, { k: 60, weights: { vector: 0.15, graph: 0.5 } }) },
  { name: 'linear min-max (vector 0.4, graph 0.5)', fuse: (lists) => linearFusion(lists, { weights: { vector: 0.4, graph: 0.5 } }) },
  { name: 'linear min-max (vector 0.4, graph 0.3)', fuse: (lists) => linearFusion(lists, { weights: { vector: 0.4, graph: 0.3 } }) },
];

interface Setting {
  rule: MatchRule;
  fusion: (typeof FUSIONS)[number];
  cut: CutOptions;
}
const describeSetting = (x: Setting) => `minShared ${x.rule.minShared}, ${x.fusion.name}, cut ratio ${x.cut.ratio}, strength^${x.cut.strengthExponent}`;

export async function runEval(root: string, extraSignals: (set: EvalSet) => Ranker[] = () => []): Promise<EvalReport> {
  const set = loadEvalSet(root);
  const files = indexFiles(set);
  const strengthOf = strengths(set);
  const lines: string[] = [];
  const memories = [...set.dirs.values()].reduce((n, docs) => n + docs.length, 0);
  lines.push(`recall evaluation: ${memories} recallable memories in ${set.dirs.size} directories; ${set.dev.length} dev queries, ${set.test.length} test queries`);
  const signalsFor = (rule: MatchRule) => [bm25Ranker(files, rule), ...extraSignals(set)];

  // Calibration on dev: BM25's shared words, the fusion, the cut's ratio and strength's weight.
  // Kept: the best hit@3 (then MRR) whose false recall stays within 10 %.
  const tried: Array<{ setting: Setting; m: Metrics }> = [];
  for (const minShared of [1, 2, 3]) {
    const rule = { ...DEFAULT_MATCH_RULE, minShared, maxShared: Math.max(minShared, DEFAULT_MATCH_RULE.maxShared) };
    for (const fusion of FUSIONS) {
      for (const ratio of [0.3, 0.5, 0.7]) {
        for (const strengthExponent of [0, 0.5, 1]) {
          const setting = { rule, fusion, cut: { ratio, strengthExponent } };
          const m = await evaluate(set.dev, pipelineRanker({ name: 'pipeline', signals: signalsFor(rule), fuse: fusion.fuse, strengthOf, cut: setting.cut }));
          tried.push({ setting, m });
        }
      }
    }
  }
  // Ties go to the setting closest to the seed's (DESIGN.md), so a choice never moves for nothing.
  const seed = (x: Setting) =>
    Number(x.rule.minShared !== DEFAULT_MATCH_RULE.minShared) + Number(x.fusion !== FUSIONS[0]) + Number(x.cut.ratio !== DEFAULT_CUT.ratio) + Number(x.cut.strengthExponent !== DEFAULT_CUT.strengthExponent);
  const rank = (x: { setting: Setting; m: Metrics }) => (x.m.falseRecall <= 0.1 ? 1 : 0) * 10 + x.m.hit3 + x.m.mrr / 100 - seed(x.setting) / 1e6;
  tried.sort((a, b) => rank(b) - rank(a));
  lines.push('', `dev calibration: ${tried.length} settings of the pipeline; the best with each BM25 rule and each strength weight (false recall ≤ 10 % first):`);
  const shown = new Set<Setting>();
  for (const minShared of [1, 2, 3]) shown.add(tried.find((t) => t.setting.rule.minShared === minShared)!.setting);
  for (const exponent of [0, 0.5, 1]) shown.add(tried.find((t) => t.setting.cut.strengthExponent === exponent)!.setting);
  for (const { setting, m } of tried.filter((t) => shown.has(t.setting))) lines.push(`  ${metricsRow(describeSetting(setting), m, 74)}`);
  const chosen = tried[0]!.setting;
  const defaults = tried.find((t) => t.setting.rule.minShared === DEFAULT_MATCH_RULE.minShared && t.setting.fusion === FUSIONS[0] && t.setting.cut.ratio === DEFAULT_CUT.ratio && t.setting.cut.strengthExponent === DEFAULT_CUT.strengthExponent);
  if (defaults) lines.push(`  the defaults in code:`, `  ${metricsRow(describeSetting(defaults.setting), defaults.m, 74)}`);
  lines.push(`  chosen: ${describeSetting(chosen)}`);

  for (const [half, queries] of [['dev', set.dev], ['test', set.test]] as const) {
    const signals = signalsFor(chosen.rule);
    const pad = ' '.repeat(half.length + 2);
    lines.push('', `${half}: ${METRICS_HEADER}`);
    for (const signal of signals) lines.push(`${pad}${metricsRow(`${signal.name} alone`, await evaluate(queries, signal))}`);
    for (const name of SIGNAL_SLOTS.filter((slot) => !signals.some((signal) => signal.name === slot))) lines.push(`${pad}${`${name} alone`.padEnd(40)}   (no ranker yet: pass one to runEval)`);
    for (const fusion of FUSIONS) {
      const ranker = pipelineRanker({ name: fusion.name, signals, fuse: fusion.fuse, strengthOf, cut: chosen.cut });
      lines.push(`${pad}${metricsRow(`pipeline, ${fusion.name}`, await evaluate(queries, ranker))}`);
    }
    const pipeline = pipelineRanker({ name: 'pipeline', signals, fuse: chosen.fusion.fuse, strengthOf, cut: chosen.cut });
    const byKind: string[] = [];
    for (const kind of [...new Set(queries.map((q) => q.kind))].sort()) {
      const m = await evaluate(queries.filter((q) => q.kind === kind), pipeline);
      byKind.push(kind === 'none' ? `none: false recall ${(100 * m.falseRecall).toFixed(1)} % of ${m.unanswerable}` : `${kind}: hit@3 ${(100 * m.hit3).toFixed(1)} % of ${m.answerable}`);
    }
    lines.push(`${pad}by kind, chosen pipeline: ${byKind.join('; ')}`);
  }
  return { chosen: { rule: chosen.rule, ratio: chosen.cut.ratio ?? DEFAULT_CUT.ratio }, lines };
}

// Run as a script (not when a test imports it).
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : resolve(import.meta.dirname, '..', '..', 'fixtures', 'recall');
  const report = await runEval(root, (set) => [graphRanker(root, set)]);
  console.log(report.lines.join('\n'));
}
