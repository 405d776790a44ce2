/**
 * What the learned correction classifier (./correction-classifier.ts) sees of a prompt: hashed
 * word unigrams and bigrams of the sentences the person typed (./prose-sentences.ts leaves out
 * code, quotes, pasted logs and wrapper elements), the first words of the prompt and of each
 * sentence apart, and a few shape signals (length, questions, how much was pasted). No rule
 * detector output: the rules were written from the same tuning prompts the model learns from, so
 * a feature "the rules fired" would look far more reliable in training than it is on new text.
 *
 * Pure and deterministic; the trainer (scripts/train-correction-classifier.ts) and the worker call
 * the same function, so the weights mean the same thing in both.
 */
import { proseSentences, type Sentence } from './prose-sentences.js';

/** Hash buckets: 2^15. Weights outside the buckets a model keeps count as zero. */
export const FEATURE_BUCKETS = 1 << 15;

/** How much of a prompt is read: the detector's own input cap is larger, but rules come early. */
const READ_CAP = 6000;
/** Words per sentence that make features: a rule is said in its first words. */
const WORDS_CAP = 60;

/** A sparse, L2-normalised feature vector: bucket → value. */
export type Features = Map<number, number>;

/** FNV-1a, 32 bits: stable across runs and machines, which the committed weights rely on. */
export function featureBucket(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % FEATURE_BUCKETS;
}

/** Lowercased words and the marks that carry meaning here (? ! ,), in order. */
export function featureWords(text: string): string[] {
  return text.toLowerCase().replaceAll('\u2019', "'").match(/[\p{L}\p{N}][\p{L}\p{N}'@_./-]*|[?!,]/gu) ?? [];
}

function bucketOf(n: number, steps: readonly number[]): number {
  let k = 0;
  while (k < steps.length && n >= steps[k]!) k++;
  return k;
}

/** The named features of one prompt (before hashing): what the tests and the trainer inspect. */
export function featureNames(prompt: string, sentences: readonly Sentence[] = proseSentences(prompt.slice(0, READ_CAP))): string[] {
  const names: string[] = [];
  const typed = sentences.reduce((n, s) => n + s.text.length, 0);
  const raw = Math.min(prompt.length, READ_CAP);
  names.push(`len:${bucketOf(prompt.length, [20, 50, 100, 200, 400, 800, 1600, 3200])}`);
  names.push(`sentences:${bucketOf(sentences.length, [1, 2, 3, 5, 8, 13])}`);
  // Most of the prompt pasted (code, logs, wrappers) rather than typed.
  names.push(`typed:${raw === 0 ? 0 : bucketOf(typed / raw, [0.2, 0.5, 0.8])}`);
  if (sentences.some((s) => s.question)) names.push('has:question');
  if (sentences.length > 0 && sentences.every((s) => s.question)) names.push('all:question');
  sentences.slice(0, 40).forEach((sentence, k) => {
    const words = featureWords(sentence.text).slice(0, WORDS_CAP);
    if (words.length === 0) return;
    const where = k === 0 ? 'first' : k === sentences.length - 1 ? 'last' : 'mid';
    names.push(`s0:${words[0]}`, `s01:${words[0]} ${words[1] ?? '.'}`, `${where}:${words[0]}`);
    if (sentence.question) names.push(`q0:${words[0]}`);
    for (let i = 0; i < words.length; i++) {
      names.push(`u:${words[i]}`);
      if (i + 1 < words.length) names.push(`b:${words[i]} ${words[i + 1]}`);
    }
  });
  return names;
}

/** The prompt's feature vector: each distinct name once, the vector scaled to length 1. */
export function correctionFeatures(prompt: string, sentences?: readonly Sentence[]): Features {
  const features: Features = new Map();
  for (const name of new Set(featureNames(prompt, sentences))) {
    const bucket = featureBucket(name);
    features.set(bucket, (features.get(bucket) ?? 0) + 1);
  }
  let norm = 0;
  for (const v of features.values()) norm += v * v;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (const [k, v] of features) features.set(k, v * scale);
  return features;
}
