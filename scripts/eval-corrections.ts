// The correction detector's evaluation (fixtures/corrections/README.md): precision, recall and F1
// on each labelled split of the rule detector (detectCorrection, what the hook announces), the
// learned classifier (learnedCorrection) and the two together (rules first, then the
// classifier; measured, not enabled: see docs/capture.md), with counts and 95 % Wilson intervals. The tuning splits are what the rules
// were written from and the classifier trained on; the held-out splits are real prompts labelled
// and committed before either ever ran on them, and are only measured. `npm run eval` prints this
// after recall quality; test/correction-detector.test.ts prints it too and holds the bars.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { learnedCorrection } from '../src/capture/correction-classifier.js';
import { detectCorrection, type Correction } from '../src/capture/correction-detector.js';

export interface LabelledPrompt {
  prompt: string;
  correction: boolean;
  type?: 'feedback' | 'user';
  note?: string;
  /** Where a real prompt was found (repository and path); absent in the hand-written splits. */
  source?: { repo: string; path: string; commit?: string; paraphrase_of?: string };
  /** Written here after a real prompt or a form the issue lists, not found as it stands. */
  paraphrase?: boolean;
}

export interface Split {
  name: string;
  /** 'tuning': the rules were written from it; 'held-out': only measured. */
  role: 'tuning' | 'held-out';
  files: string[];
}

/** The splits, in the order they are reported. */
export const CORRECTION_SPLITS: readonly Split[] = [
  { name: 'hand-written', role: 'tuning', files: ['labelled.jsonl', 'holdout.jsonl', 'holdout-2.jsonl'] },
  { name: 'real, tuning', role: 'tuning', files: ['real-tuning.jsonl', 'real-tuning-2.jsonl', 'real-tuning-3.jsonl', 'real-tuning-4.jsonl', 'real-tuning-5.jsonl'] },
  { name: 'real, held-out', role: 'held-out', files: ['real-holdout-4.jsonl'] },
  { name: 'real, held-out 5', role: 'held-out', files: ['real-holdout-5.jsonl'] },
  { name: 'real, held-out 6', role: 'held-out', files: ['real-holdout-6.jsonl'] },
];

/** What is scored: the rules alone, the classifier alone, and the rules first, then the classifier. */
export const CORRECTION_DETECTORS: readonly { name: string; detect: (prompt: string) => Correction | null }[] = [
  { name: 'rules', detect: detectCorrection },
  { name: 'classifier', detect: learnedCorrection },
  { name: 'rules+classifier', detect: (prompt) => detectCorrection(prompt) ?? learnedCorrection(prompt) },
];

export interface SplitScore {
  split: Split;
  prompts: number;
  corrections: number;
  /** Prompts from public repositories as found (not paraphrased). */
  real: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  /** Of the corrections found, how many got the labelled type (feedback or user). */
  typeAgreement: number;
  misses: string[];
  falsePositives: string[];
}

export const correctionFixtures = (root: string): string => join(root, 'fixtures', 'corrections');

export function loadLabelled(dir: string, file: string): LabelledPrompt[] {
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LabelledPrompt);
}

const quote = (text: string) => JSON.stringify(text.length > 90 ? `${text.slice(0, 90)}…` : text);

export function scoreSplit(split: Split, rows: readonly LabelledPrompt[], detect: (prompt: string) => Correction | null = detectCorrection): SplitScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let typeAgrees = 0;
  const misses: string[] = [];
  const falsePositives: string[] = [];
  for (const row of rows) {
    const found = detect(row.prompt);
    if (found && row.correction) {
      tp++;
      if (found.type === (row.type ?? 'feedback')) typeAgrees++;
    } else if (found) {
      fp++;
      falsePositives.push(`${quote(row.prompt)} → ${JSON.stringify(found.lesson)}`);
    } else if (row.correction) {
      fn++;
      misses.push(quote(row.prompt));
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return {
    split,
    prompts: rows.length,
    corrections: tp + fn,
    real: rows.filter((r) => r.source !== undefined && !r.paraphrase && !r.source.repo.startsWith('engram')).length,
    tp,
    fp,
    fn,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    typeAgreement: tp === 0 ? 1 : typeAgrees / tp,
    misses,
    falsePositives,
  };
}

export function scoreCorrectionSplits(root: string, detect: (prompt: string) => Correction | null = detectCorrection): SplitScore[] {
  const dir = correctionFixtures(root);
  return CORRECTION_SPLITS.map((split) => scoreSplit(split, split.files.flatMap((file) => loadLabelled(dir, file)), detect));
}

/** The 95 % Wilson score interval of k successes in n trials: honest at small n and near 0 or 1. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const interval = ([lo, hi]: [number, number]) => `${lo.toFixed(2)}–${hi.toFixed(2)}`;

/** One line a detector and split: precision and recall with their counts and intervals. */
export function countsLine(detector: string, s: SplitScore): string {
  // Nothing found: precision is undefined, not 1.
  const precision = s.tp + s.fp === 0 ? '  —  ' : s.precision.toFixed(3);
  return (
    `  ${detector.padEnd(17)} ${s.split.name.padEnd(17)} ${s.split.role.padEnd(9)} ` +
    `P ${precision} (${s.tp}/${s.tp + s.fp}, ${interval(wilson(s.tp, s.tp + s.fp))})  ` +
    `R ${s.recall.toFixed(3)} (${s.tp}/${s.tp + s.fn}, ${interval(wilson(s.tp, s.tp + s.fn))})`
  );
}

/** The held-out splits as one: their counts summed (each file was scored once, as it came). */
export function pooled(scores: readonly SplitScore[]): SplitScore {
  const sum = (key: 'tp' | 'fp' | 'fn' | 'prompts' | 'real') => scores.reduce((n, s) => n + s[key], 0);
  const [tp, fp, fn] = [sum('tp'), sum('fp'), sum('fn')];
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return {
    split: { name: 'all held-out', role: 'held-out', files: scores.flatMap((s) => s.split.files) },
    prompts: sum('prompts'), corrections: tp + fn, real: sum('real'), tp, fp, fn, precision, recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    typeAgreement: 1, misses: [], falsePositives: [],
  };
}

/** Every detector on every split: the lines `npm run eval` prints, and the scores. */
export function detectorReport(root: string): { lines: string[]; scores: Map<string, SplitScore[]> } {
  const scores = new Map(CORRECTION_DETECTORS.map((d) => [d.name, scoreCorrectionSplits(root, d.detect)]));
  const lines = ['Rules (what engram runs), the learned classifier, and both (measured only): precision (found right / found), recall (found / corrections), 95 % Wilson intervals:'];
  for (const [name, splitScores] of scores) {
    for (const s of splitScores) lines.push(countsLine(name, s));
    lines.push(countsLine(name, pooled(splitScores.filter((s) => s.split.role === 'held-out'))));
  }
  const both = scores.get('rules+classifier')!;
  for (const s of both.filter((x) => x.split.role === 'held-out')) {
    const ok = s.precision >= 0.95 && s.recall >= 0.8;
    lines.push(`  held-out target (precision ≥ 0.95, recall ≥ 0.80), rules+classifier: ${ok ? 'met' : 'NOT met'} on ${s.split.name}`);
  }
  return { lines, scores };
}

/** The report: one row per split, then each split's misses and false positives. */
export function correctionReport(scores: readonly SplitScore[], details = true): string[] {
  const lines = [
    'Correction detector (fixtures/corrections; rules written from the tuning splits, the held-out split only measured):',
    `  ${'split'.padEnd(16)} ${'role'.padEnd(9)} ${'prompts'.padStart(7)} ${'real'.padStart(5)} ${'corr.'.padStart(5)}  ${'precision'.padStart(9)} ${'recall'.padStart(6)} ${'F1'.padStart(5)}  type`,
  ];
  for (const s of scores) {
    lines.push(
      `  ${s.split.name.padEnd(16)} ${s.split.role.padEnd(9)} ${String(s.prompts).padStart(7)} ${String(s.real).padStart(5)} ${String(s.corrections).padStart(5)}  ` +
        `${s.precision.toFixed(3).padStart(9)} ${s.recall.toFixed(3).padStart(6)} ${s.f1.toFixed(3).padStart(5)}  ${s.typeAgreement.toFixed(2)}`,
    );
  }
  const heldOut = scores.filter((s) => s.split.role === 'held-out');
  for (const s of heldOut) {
    const ok = s.precision >= 0.95 && s.recall >= 0.8;
    lines.push(`  held-out target (precision ≥ 0.95, recall ≥ 0.80): ${ok ? 'met' : 'NOT met'} on ${s.split.name}`);
  }
  if (details) {
    for (const s of scores) {
      if (s.misses.length === 0 && s.falsePositives.length === 0) continue;
      lines.push(`  ${s.split.name}:`);
      for (const miss of s.misses) lines.push(`    missed ${miss}`);
      for (const fp of s.falsePositives) lines.push(`    false positive ${fp}`);
    }
  }
  return lines;
}

// Run as a script: `node dist/scripts/eval-corrections.js`.
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..', '..');
  console.log(correctionReport(scoreCorrectionSplits(root)).join('\n'));
  console.log(detectorReport(root).lines.join('\n'));
}
