import type { EventDefinition } from '../events/define-event.js';
import { describeIssues } from '../events/describe-issues.js';
import { redactDeepNoLonger } from './redact-capped.js';
import { redactDeep, redactField } from './redact.js';
import { redactValueNamed } from './redaction-judge.js';

/**
 * The last redaction pass every hook event gets before it is written, and its schema check: each
 * hook redacts and caps what it keeps, and this makes sure no field was forgotten. A marker
 * longer than what it replaces may not fit a field's cap: then nothing grows. `engram backfill`
 * builds the same events from transcripts and passes them through here too, so both redact alike.
 *
 * `settled` names top-level string fields of `built` that are `redactCapped`'s output, which
 * redaction leaves alone (`redactText(out) === out`): their text is not redacted again, only
 * judged by their key, as `redactField` would. A hook's cold process paid ≈ 0.3–0.5 ms per string
 * redacted, and the tool hooks redacted each field twice.
 */
export function redactEventData(
  definition: EventDefinition,
  built: unknown,
  settled: readonly string[] = [],
): { ok: true; data: unknown } | { ok: false; problem: string } {
  let data = settled.length === 0 ? redactDeep(built) : redactUnsettled(built, settled);
  let checked = definition.data.safeParse(data);
  if (!checked.success) {
    data = redactDeepNoLonger(built);
    checked = definition.data.safeParse(data);
  }
  if (!checked.success) return { ok: false, problem: `the ${definition.type} built from stdin is invalid: ${describeIssues(checked.error)}` };
  return { ok: true, data };
}

/** `redactDeep(built)`, except that the settled fields' text is taken as already redacted. */
function redactUnsettled(built: unknown, settled: readonly string[]): unknown {
  if (built === null || typeof built !== 'object' || Array.isArray(built) || Object.getPrototypeOf(built) !== Object.prototype) return redactDeep(built);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(built)) {
    copy[key] = typeof value === 'string' && settled.includes(key) ? redactValueNamed(key, value) : redactDeep(value, redactField, key);
  }
  return copy;
}
