import { describeIssues } from '../events/describe-issues.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { answerJson } from './answer-json.js';
import type { AnswerNote } from './answer-note.js';
import { readClaudeOutput } from './claude-output.js';
import { CANDIDATE_TYPES, MAX_CANDIDATES, RawDistillAnswer, type DistillAnswer } from '../events/distill-answer-schema.js';
import { sanitiseAnswer } from './sanitise-answer.js';

/**
 * Why an answer was refused; stable, so the distill-failed event, `engram doctor` and tests
 * match on it.
 * - `output-not-json`: the command's stdout is not JSON at all.
 * - `output-wrong-shape`: JSON, but not claude's result object.
 * - `llm-error`: claude reported a failed run (`is_error`, or a subtype other than `success`).
 * - `not-json`: the model's answer (the `result` string) holds no JSON.
 * - `wrong-shape`: JSON, but not `{episode, candidates}` as issue 8 item 3 fixes it.
 * - `unknown-type`: a candidate's type is none of user, feedback, project, reference, value, insight.
 * - `unsafe-episode`: nothing of the episode's name or body survived the injection filter.
 */
export const DISTILL_FAILURE_REASONS = [
  'output-not-json',
  'output-wrong-shape',
  'llm-error',
  'not-json',
  'wrong-shape',
  'unknown-type',
  'unsafe-episode',
] as const;
export type DistillFailureReason = (typeof DISTILL_FAILURE_REASONS)[number];

export type DistillAnswerResult =
  | {
      ok: true;
      answer: DistillAnswer;
      /** Everything changed on the way, in order; empty when the answer was used as written. */
      notes: AnswerNote[];
      /** What claude said the run cost, when it said. */
      costUsd?: number;
    }
  | { ok: false; reason: DistillFailureReason; detail: string };

/**
 * Reads what `claude -p --output-format json` printed (or `ENGRAM_LLM_CMD`, which must print the
 * same) into a distiller's answer, or the reason it cannot be used. Never throws.
 *
 * More than 3 candidates is not a refusal: the prompt asks for the most lasting first, so the
 * first 3 are kept and the cut is noted. Lines aimed at a model are removed from every text (see
 * neutralise-injection.ts), secrets are redacted, texts are capped, each with a note.
 */
export function parseDistillAnswer(stdout: string): DistillAnswerResult {
  const output = readClaudeOutput(stdout);
  if (!output.ok) return output;
  const cost = output.costUsd === undefined ? {} : { costUsd: output.costUsd };
  if (output.result.trim() === '') return { ok: false, reason: 'not-json', detail: 'the answer is empty' };
  const json = answerJson(output.result);
  if (!json.ok) return { ok: false, reason: 'not-json', detail: json.detail };
  const notes: AnswerNote[] = [];
  if (json.unwrapped !== 'bare') notes.push({ code: 'unwrapped', at: 'answer', detail: json.unwrapped });
  let value = json.value;
  if (isRecord(value) && Array.isArray(value.candidates) && value.candidates.length > MAX_CANDIDATES) {
    notes.push({ code: 'candidates-dropped', at: 'candidates', detail: `kept the first ${MAX_CANDIDATES} of ${value.candidates.length}` });
    value = { ...value, candidates: value.candidates.slice(0, MAX_CANDIDATES) };
  }
  const unknownType = firstUnknownType(value);
  if (unknownType) return { ok: false, reason: 'unknown-type', detail: unknownType };
  const parsed = RawDistillAnswer.safeParse(value);
  if (!parsed.success) return { ok: false, reason: 'wrong-shape', detail: describeIssues(parsed.error) };
  const sanitised = sanitiseAnswer(parsed.data);
  if (!sanitised.ok) return sanitised;
  return { ok: true, answer: sanitised.answer, notes: [...notes, ...sanitised.notes], ...cost };
}

// A type the contract does not know means the model did not follow it; that is its own reason,
// apart from a malformed shape.
function firstUnknownType(value: unknown): string | undefined {
  if (!isRecord(value) || !Array.isArray(value.candidates)) return undefined;
  for (const [i, candidate] of value.candidates.entries()) {
    if (!isRecord(candidate) || typeof candidate.type !== 'string') continue;
    if (!(CANDIDATE_TYPES as readonly string[]).includes(candidate.type)) {
      return `candidates[${i}].type ${JSON.stringify(redactCapped(candidate.type, 40))} is not one of ${CANDIDATE_TYPES.join(', ')}`;
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
