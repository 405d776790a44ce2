// Trains the learned correction classifier (src/capture/correction-classifier.ts) on the TUNING
// splits of fixtures/corrections only (never a held-out file), and writes its weights to
// src/capture/correction-classifier-weights.json. Deterministic: the same fixtures give the same
// file, byte for byte (test/correction-classifier.test.ts reruns it and compares).
//
// Logistic regression over hashed word n-grams (src/capture/correction-features.ts), L2
// regularised, full-batch gradient descent with Adam from zero weights for a fixed number of
// steps. The regularisation and the threshold are chosen by 5-fold cross-validation on the tuning
// prompts (folds by a hash of the prompt): of the thresholds at which the rules OR the classifier
// keep precision ≥ 0.95 on the out-of-fold predictions, the one with the best recall.
//   npm run train:corrections            (or: node dist/scripts/train-correction-classifier.js [--check])
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { detectCorrection } from '../src/capture/correction-detector.js';
import { correctionFeatures, featureBucket, FEATURE_BUCKETS, type Features } from '../src/capture/correction-features.js';
import { CORRECTION_SPLITS, correctionFixtures, loadLabelled } from './eval-corrections.js';

export const WEIGHTS_FILE = join('src', 'capture', 'correction-classifier-weights.json');
const FOLDS = 5;
const STEPS = 400;
const LAMBDAS = [1e-4, 3e-4, 1e-3, 3e-3];
const TARGET_PRECISION = 0.95;
/** Weights smaller than this are dropped from the file: they move no score past the third decimal. */
const KEEP = 5e-4;

interface Example {
  x: Features;
  y: 0 | 1;
  /** The rule detector's answer, for choosing the threshold of "rules OR classifier". */
  rule: boolean;
  fold: number;
}

export interface Model {
  bias: number;
  weights: Float64Array;
}

export function trainLogistic(data: readonly Example[], lambda: number, steps = STEPS): Model {
  const w = new Float64Array(FEATURE_BUCKETS);
  const m = new Float64Array(FEATURE_BUCKETS);
  const v = new Float64Array(FEATURE_BUCKETS);
  let bias = 0;
  let mb = 0;
  let vb = 0;
  const positives = data.filter((e) => e.y === 1).length;
  // Corrections are the rare class: each counts as much as the negatives together, so the model
  // is not pulled to "never"; the threshold chosen afterwards is what sets precision.
  const posWeight = positives === 0 ? 1 : (data.length - positives) / positives;
  const total = data.reduce((n, e) => n + (e.y === 1 ? posWeight : 1), 0);
  const rate = 0.05;
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  const grad = new Float64Array(FEATURE_BUCKETS);
  // Each example's features as flat arrays, in its Map's order, so every sum adds the same terms in
  // the same order (the same weights to the bit): iterating the Maps made an entry per feature per
  // step, most of the training's time.
  const rows = data.map((e) => ({ keys: Int32Array.from(e.x.keys()), values: Float64Array.from(e.x.values()), y: e.y }));
  // A bucket no example has keeps a zero gradient, weight and moments, which the update skips.
  const active = Int32Array.from(new Set(data.flatMap((e) => [...e.x.keys()])));
  for (let t = 1; t <= steps; t++) {
    grad.fill(0);
    let gb = 0;
    for (const { keys, values, y } of rows) {
      let z = bias;
      for (let i = 0; i < keys.length; i++) z += w[keys[i]!]! * values[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = ((p - y) * (y === 1 ? posWeight : 1)) / total;
      gb += g;
      for (let i = 0; i < keys.length; i++) grad[keys[i]!]! += g * values[i]!;
    }
    const c1 = 1 - b1 ** t;
    const c2 = 1 - b2 ** t;
    for (const k of active) {
      const g = grad[k]! + lambda * w[k]!;
      if (g === 0 && m[k] === 0) continue;
      m[k] = b1 * m[k]! + (1 - b1) * g;
      v[k] = b2 * v[k]! + (1 - b2) * g * g;
      w[k]! -= (rate * (m[k]! / c1)) / (Math.sqrt(v[k]! / c2) + eps);
    }
    mb = b1 * mb + (1 - b1) * gb;
    vb = b2 * vb + (1 - b2) * gb * gb;
    bias -= (rate * (mb / c1)) / (Math.sqrt(vb / c2) + eps);
  }
  return { bias, weights: w };
}

export function scoreWith(model: Model, x: Features): number {
  let z = model.bias;
  for (const [k, val] of x) z += model.weights[k]! * val;
  return 1 / (1 + Math.exp(-z));
}

interface Choice {
  threshold: number;
  precision: number;
  recall: number;
  tp: number;
  fp: number;
  fn: number;
}

/** The lowest threshold at which "rule OR score ≥ threshold" keeps precision ≥ target: best recall. */
export function chooseThreshold(scored: readonly { p: number; y: 0 | 1; rule: boolean }[], target = TARGET_PRECISION): Choice {
  const candidates = [...new Set(scored.map((s) => Math.round(s.p * 1000) / 1000))].sort((a, b) => a - b);
  let best: Choice | undefined;
  for (const threshold of [...candidates, 1.001]) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const s of scored) {
      const hit = s.rule || s.p >= threshold;
      if (hit && s.y) tp++;
      else if (hit) fp++;
      else if (s.y) fn++;
    }
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
    if (precision >= target && (!best || recall > best.recall)) best = { threshold, precision, recall, tp, fp, fn };
  }
  return best!;
}

function examples(root: string): { data: Example[]; files: string[] } {
  const dir = correctionFixtures(root);
  const files = CORRECTION_SPLITS.filter((s) => s.role === 'tuning').flatMap((s) => s.files);
  const data = files.flatMap((file) => loadLabelled(dir, file)).map((row) => ({
    x: correctionFeatures(row.prompt),
    y: (row.correction ? 1 : 0) as 0 | 1,
    rule: detectCorrection(row.prompt) !== null,
    fold: featureBucket(row.prompt) % FOLDS,
  }));
  return { data, files };
}

function crossValidate(data: readonly Example[], lambda: number): { scored: { p: number; y: 0 | 1; rule: boolean }[]; choice: Choice } {
  const scored: { p: number; y: 0 | 1; rule: boolean }[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const model = trainLogistic(data.filter((e) => e.fold !== fold), lambda);
    for (const e of data) if (e.fold === fold) scored.push({ p: scoreWith(model, e.x), y: e.y, rule: e.rule });
  }
  return { scored, choice: chooseThreshold(scored) };
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** The weights file's text for the tuning fixtures under `root`, and what cross-validation found. */
export function trainWeights(root: string, log: (line: string) => void = () => {}, lambdas: readonly number[] = LAMBDAS): string {
  const { data, files } = examples(root);
  let best: { lambda: number; choice: Choice } | undefined;
  for (const lambda of lambdas) {
    const { choice } = crossValidate(data, lambda);
    log(`  λ=${lambda}: out-of-fold, rules OR classifier ≥ ${choice.threshold}: precision ${choice.precision.toFixed(3)} recall ${choice.recall.toFixed(3)} (tp ${choice.tp}, fp ${choice.fp}, fn ${choice.fn})`);
    if (!best || choice.recall > best.choice.recall) best = { lambda, choice };
  }
  const model = trainLogistic(data, best!.lambda);
  const weights: [number, number][] = [];
  model.weights.forEach((w, k) => {
    if (Math.abs(w) >= KEEP) weights.push([k, round(w, 4)]);
  });
  const file = {
    format: 1,
    about: 'Learned correction classifier (src/capture/correction-classifier.ts). Generated by scripts/train-correction-classifier.ts from the tuning splits only; do not edit.',
    buckets: FEATURE_BUCKETS,
    trainedOn: files,
    prompts: data.length,
    corrections: data.filter((e) => e.y === 1).length,
    lambda: best!.lambda,
    steps: STEPS,
    threshold: best!.choice.threshold,
    crossValidation: { folds: FOLDS, ...best!.choice, precision: round(best!.choice.precision, 4), recall: round(best!.choice.recall, 4) },
    bias: round(model.bias, 4),
    weights,
  };
  return `${JSON.stringify(file)}\n`;
}

// Run as a script: writes the weights file (or, with --check, says whether it is current).
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..', '..');
  const text = trainWeights(root, console.log);
  const path = join(root, WEIGHTS_FILE);
  if (process.argv.includes('--check')) {
    const same = readFileSync(path, 'utf8') === text;
    console.log(same ? `${WEIGHTS_FILE} is current` : `${WEIGHTS_FILE} differs from a fresh training: rerun without --check`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${WEIGHTS_FILE} (${text.length} bytes)`);
  }
}
