import { describeJsonError } from '../describe-json-error.js';
import * as z from 'zod/mini';
import { describeIssues } from '../events/describe-issues.js';
import { redactCapped } from '../redaction/redact-capped.js';

/**
 * What `claude -p --output-format json` prints once the run ends: one JSON object whose `result`
 * holds the model's final text, beside the run's metadata (`type: "result"`, `subtype`
 * `success` | `error_max_turns` | `error_during_execution`, `is_error`, `duration_ms`,
 * `num_turns`, `session_id`, `total_cost_usd`, `usage`, …). Fields it does not need are kept
 * out, never refused, so a newer Claude Code that adds some still parses.
 */
const ClaudeResultObject = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.optional(z.boolean()),
  result: z.optional(z.string()),
  session_id: z.optional(z.string()),
  total_cost_usd: z.optional(z.number()),
});

export type ClaudeOutput =
  | { ok: true; result: string; costUsd?: number }
  | { ok: false; reason: 'output-not-json' | 'output-wrong-shape' | 'llm-error'; detail: string };

/** Longest piece of the command's own words a failure quotes (redacted: it is recorded). */
const DETAIL_CAP = 300;

export function readClaudeOutput(stdout: string): ClaudeOutput {
  let value: unknown;
  try {
    value = JSON.parse(stdout.trim());
  } catch (err) {
    return { ok: false, reason: 'output-not-json', detail: `${describeJsonError(err, stdout.trim())}; began ${JSON.stringify(redactCapped(stdout, 80))}` };
  }
  const parsed = ClaudeResultObject.safeParse(value);
  if (!parsed.success) return { ok: false, reason: 'output-wrong-shape', detail: describeIssues(parsed.error) };
  const output = parsed.data;
  if (output.is_error === true || output.subtype !== 'success' || output.result === undefined) {
    const said = output.result === undefined ? '' : `: ${redactCapped(output.result, DETAIL_CAP)}`;
    return { ok: false, reason: 'llm-error', detail: `${output.subtype}${output.is_error ? ' (is_error)' : ''}${said}` };
  }
  return output.total_cost_usd === undefined ? { ok: true, result: output.result } : { ok: true, result: output.result, costUsd: output.total_cost_usd };
}
