/**
 * The learned correction classifier: logistic regression over hashed word n-grams
 * (./correction-features.ts), its weights trained by scripts/train-correction-classifier.ts on
 * the tuning splits of fixtures/corrections and committed as ./correction-classifier-weights.json.
 * It reaches what the phrase tables cannot: rules and facts said with no cue word ("My routes
 * should be in @routes.py", "the device does not use telnet - the device uses ssh only").
 *
 * Measured, not enabled: on held-out real prompts it found fewer corrections than it invented
 * (docs/capture.md has the figures), so neither the hook nor the memories projector calls it; the
 * evaluation (scripts/eval-corrections.ts) does. Were it enabled, its place is the worker's
 * projector, not a hook (its weights cost a hook's budget). Pure and deterministic like the rule
 * detector: the same text and the same weights give the same answer.
 */
import weightsFile from './correction-classifier-weights.json' with { type: 'json' };
import type { Correction } from './correction-detector.js';
import { correctionFeatures, featureWords, FEATURE_BUCKETS, type Features } from './correction-features.js';
import { cleanLesson, describeLesson } from './lesson-text.js';
import { INPUT_CAP } from './might-be-correction.js';
import { proseSentences, type Sentence } from './prose-sentences.js';

interface WeightsFile {
  buckets: number;
  threshold: number;
  bias: number;
  weights: number[][];
}

const file = weightsFile as WeightsFile;
// A table filled once from the weights file here, read-only after.
const weights = new Float64Array(FEATURE_BUCKETS);
if (file.buckets === FEATURE_BUCKETS) for (const [k, w] of file.weights) weights[k!] = w!;

/** A prompt at or above this score is a correction (chosen by cross-validation, see the trainer). */
export const CLASSIFIER_THRESHOLD: number = file.buckets === FEATURE_BUCKETS ? file.threshold : Infinity;

function score(x: Features): number {
  let z = file.bias;
  for (const [k, v] of x) z += weights[k]! * v;
  return 1 / (1 + Math.exp(-z));
}

/** How likely the classifier finds it that `prompt` is a correction, 0–1. */
export function correctionScore(prompt: string, sentences?: readonly Sentence[]): number {
  return score(correctionFeatures(prompt, sentences));
}

/** Words that carry content: a lesson of fewer than three says too little to keep. */
function substantial(text: string): boolean {
  return featureWords(text).filter((w) => w.length >= 3 && /\p{L}/u.test(w)).length >= 3;
}

/**
 * The correction the classifier finds in `prompt`, or null. The lesson is the typed sentence the
 * classifier scores highest on its own (a question never is one), cleaned as the rules' lessons are.
 */
export function learnedCorrection(prompt: string): Correction | null {
  if (typeof prompt !== 'string' || prompt.length === 0) return null;
  const text = prompt.length > INPUT_CAP ? prompt.slice(0, INPUT_CAP) : prompt;
  const sentences = proseSentences(text);
  if (sentences.length === 0 || correctionScore(text, sentences) < CLASSIFIER_THRESHOLD) return null;
  let best: { sentence: Sentence; p: number } | undefined;
  for (const sentence of sentences.slice(0, 40)) {
    if (sentence.question || !substantial(sentence.text)) continue;
    const p = correctionScore(sentence.text, [sentence]);
    if (!best || p > best.p) best = { sentence, p };
  }
  if (!best) return null;
  const lesson = cleanLesson(best.sentence.text);
  if (!substantial(lesson)) return null;
  const { description, name } = describeLesson(lesson);
  // "I'm colorblind, …": a fact about the person; anything else is how to work here.
  const aboutThePerson = /^(?:i'm|i am)\s/i.test(lesson);
  return { kind: 'learned', type: aboutThePerson ? 'user' : 'feedback', scope: aboutThePerson ? 'global' : 'project', lesson, name, description };
}
