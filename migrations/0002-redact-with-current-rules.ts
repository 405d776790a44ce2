import { knownDefinitions } from '../src/events/catalog.js';
import { defineLogMigration } from '../src/events/define-log-migration.js';
import type { Envelope } from '../src/events/envelope.js';
import { redactDeepNoLonger } from '../src/redaction/redact-capped.js';
import { redactDeep } from '../src/redaction/redact.js';

/**
 * Runs every stored string through today's redaction rules. When a rule is added or widened,
 * add a migration that calls `redactWithCurrentRules('<its id>')`: logs written before it then
 * have the newly recognised secrets taken out by the next `engram migrate`.
 *
 * Stored strings were capped when they were written (a 200-character pointer), and a marker can
 * be longer than the secret it replaces: when the redacted event would no longer fit its
 * schema, no string is allowed to grow, and what does not fit is cut as the hooks cut it.
 */
export function redactWithCurrentRules(id: string) {
  return defineLogMigration({
    id,
    description: 'redact every stored string again with the current redaction rules',
    transform(event) {
      let data = redactDeep(event.data);
      if (JSON.stringify(data) === JSON.stringify(event.data)) return event;
      if (!fitsItsSchema(event, data)) data = redactDeepNoLonger(event.data);
      return { ...event, data };
    },
  });
}

/**
 * Whether `data` fits the event's schema. An older schemaVersion is read through upcasters this
 * file cannot see without importing migrations/ into itself; for those, nothing may grow.
 */
function fitsItsSchema(event: Envelope, data: unknown): boolean {
  const definition = knownDefinitions.find((d) => d.type === event.type);
  return definition !== undefined && definition.schemaVersion === event.schemaVersion && definition.data.safeParse(data).success;
}

export const redactWithRulesOfRelease010 = redactWithCurrentRules('0002-redact-with-current-rules');
