import type { EventDefinition } from '../events/define-event.js';
import { describeIssues } from '../events/describe-issues.js';
import { redactDeepNoLonger } from './redact-capped.js';
import { redactDeep } from './redact.js';

/**
 * The last redaction pass every hook event gets before it is written, and its schema check: each
 * hook redacts and caps what it keeps, and this makes sure no field was forgotten. A marker
 * longer than what it replaces may not fit a field's cap: then nothing grows. `engram backfill`
 * builds the same events from transcripts and passes them through here too, so both redact alike.
 */
export function redactEventData(definition: EventDefinition, built: unknown): { ok: true; data: unknown } | { ok: false; problem: string } {
  let data = redactDeep(built);
  let checked = definition.data.safeParse(data);
  if (!checked.success) {
    data = redactDeepNoLonger(built);
    checked = definition.data.safeParse(data);
  }
  if (!checked.success) return { ok: false, problem: `the ${definition.type} built from stdin is invalid: ${describeIssues(checked.error)}` };
  return { ok: true, data };
}
