import { defineLogMigration } from '../src/events/define-log-migration.js';
import { redactDeep } from '../src/redaction/redact.js';

/**
 * Runs every stored string through today's redaction rules. When a rule is added or widened,
 * add a migration that calls `redactWithCurrentRules('<its id>')`: logs written before it then
 * have the newly recognised secrets taken out by the next `engram migrate`.
 */
export function redactWithCurrentRules(id: string) {
  return defineLogMigration({
    id,
    description: 'redact every stored string again with the current redaction rules',
    transform(event) {
      const data = redactDeep(event.data);
      return JSON.stringify(data) === JSON.stringify(event.data) ? event : { ...event, data };
    },
  });
}

export const redactWithRulesOfRelease010 = redactWithCurrentRules('0002-redact-with-current-rules');
