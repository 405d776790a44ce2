// An experiment kept so anyone can rerun it (docs/capture.md "The learned classifier"): logistic
// regression on USE Lite sentence embeddings (the worker's model) of each prompt's typed prose,
// trained on the tuning splits only, the L2 weight and threshold chosen by 5-fold cross-validation
// (out-of-fold precision ≥ 0.95, best recall), then scored on each held-out split. Not part of
// engram: an embedding is async and costs the model, so it cannot run in a pure projector, and it
// did no better than the word classifier. Vectors are cached (a second run embeds nothing).
//   npm run build && node dist/scripts/eval-correction-embeddings.js [--cache DIR]
import { resolve } from 'node:path';
import { detectCorrection } from '../src/capture/correction-detector.js';
import { featureBucket, type Features } from '../src/capture/correction-features.js';
import { proseSentences } from '../src/capture/prose-sentences.js';
import { cachedEmbedder, EmbeddingCache } from '../src/recall/embedding-cache.js';
import { useLiteEmbedder } from '../src/recall/embedders/use-lite-embedder.js';
import { CORRECTION_SPLITS, correctionFixtures, loadLabelled, wilson } from './eval-corrections.js';
import { chooseThreshold, scoreWith, trainLogistic } from './train-correction-classifier.js';

const LAMBDAS = [1e-3, 1e-2, 1e-1];
const FOLDS = 5;

/** What is embedded: the sentences the person typed (the whole prompt if none), at most 2,000 characters. */
export function embeddedText(prompt: string): string {
  const typed = proseSentences(prompt.slice(0, 6000)).map((s) => s.text).join('\n');
  return (typed || prompt).slice(0, 2000);
}

function auc(scored: readonly { p: number; y: 0 | 1 }[]): number {
  let pos = 0;
  let neg = 0;
  let sum = 0;
  for (const s of [...scored].sort((a, b) => a.p - b.p)) {
    if (s.y) {
      pos++;
      sum += neg;
    } else neg++;
  }
  return pos === 0 || neg === 0 ? NaN : sum / (pos * neg);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..', '..');
  const at = process.argv.indexOf('--cache');
  const cacheDir = at > 0 ? resolve(process.argv[at + 1]!) : resolve(root, '.cache', 'correction-embeddings');
  const dir = correctionFixtures(root);
  const cache = await EmbeddingCache.open(cacheDir);
  const embedder = cachedEmbedder(useLiteEmbedder(), cache);
  const splits = [];
  try {
    for (const split of CORRECTION_SPLITS) {
      const rows = split.files.flatMap((file) => loadLabelled(dir, file));
      const vectors: Float32Array[] = [];
      for (let i = 0; i < rows.length; i += 64) vectors.push(...(await embedder.embed(rows.slice(i, i + 64).map((r) => embeddedText(r.prompt)))));
      const examples = rows.map((row, i) => ({
        x: new Map([...vectors[i]!].map((v, k) => [k, v])) as Features,
        y: (row.correction ? 1 : 0) as 0 | 1,
        rule: detectCorrection(row.prompt) !== null,
        fold: featureBucket(row.prompt) % FOLDS,
      }));
      splits.push({ split, examples });
    }
  } finally {
    await embedder.close?.();
    await cache.close();
  }
  const tuning = splits.filter((s) => s.split.role === 'tuning').flatMap((s) => s.examples);
  let best: { lambda: number; alone: ReturnType<typeof chooseThreshold>; both: ReturnType<typeof chooseThreshold> } | undefined;
  for (const lambda of LAMBDAS) {
    const scored: { p: number; y: 0 | 1; rule: boolean }[] = [];
    for (let fold = 0; fold < FOLDS; fold++) {
      const model = trainLogistic(tuning.filter((e) => e.fold !== fold), lambda);
      for (const e of tuning) if (e.fold === fold) scored.push({ p: scoreWith(model, e.x), y: e.y, rule: e.rule });
    }
    const alone = chooseThreshold(scored.map((s) => ({ ...s, rule: false })));
    const both = chooseThreshold(scored);
    console.log(`λ=${lambda}: out of fold, embeddings alone ≥ ${alone.threshold}: P ${alone.precision.toFixed(3)} R ${alone.recall.toFixed(3)}; rules OR embeddings ≥ ${both.threshold}: P ${both.precision.toFixed(3)} R ${both.recall.toFixed(3)}`);
    if (!best || alone.recall > best.alone.recall) best = { lambda, alone, both };
  }
  const model = trainLogistic(tuning, best!.lambda);
  console.log(`chosen λ=${best!.lambda}; held-out splits:`);
  for (const { split, examples } of splits.filter((s) => s.split.role === 'held-out')) {
    const scored = examples.map((e) => ({ p: scoreWith(model, e.x), y: e.y, rule: e.rule }));
    for (const [name, threshold, withRules] of [['embeddings', best!.alone.threshold, false], ['rules+embeddings', best!.both.threshold, true]] as const) {
      const hit = scored.map((s) => (withRules && s.rule) || s.p >= threshold);
      const tp = scored.filter((s, i) => hit[i] && s.y).length;
      const found = hit.filter(Boolean).length;
      const corrections = scored.filter((s) => s.y).length;
      const [lo, hi] = wilson(tp, corrections);
      console.log(`  ${name.padEnd(17)} ${split.name.padEnd(17)} P ${found ? (tp / found).toFixed(3) : '  —  '} (${tp}/${found})  R ${(tp / corrections).toFixed(3)} (${tp}/${corrections}, ${lo.toFixed(2)}–${hi.toFixed(2)})`);
    }
    const top = [...scored].sort((a, b) => b.p - a.p).slice(0, 20).filter((s) => s.y).length;
    console.log(`  ROC AUC ${auc(scored).toFixed(3)}; corrections among the 20 it scores highest: ${top}`);
  }
}
