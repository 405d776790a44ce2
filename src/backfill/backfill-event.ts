import type { EventDefinition } from '../events/define-event.js';
import type { Envelope } from '../events/envelope.js';
import { redactEventData } from '../redaction/redact-event-data.js';
import { countRedactions, type Counts } from './backfill-tally.js';

export interface BackfillPlace {
  id: string;
  /** When it happened, by the record: milliseconds since the epoch. */
  at: number;
  session: string;
  project: string;
}

/**
 * A hook event as the hook would have written it, from data built the way that hook builds it:
 * the hooks' own last redaction pass and schema check, the record's time and session. Undefined
 * when it cannot be made valid (counted by the caller); the secrets taken out go into `redacted`.
 */
export function backfillEvent(definition: EventDefinition, built: unknown, place: BackfillPlace, redacted: Counts): Envelope | undefined {
  const checked = redactEventData(definition, built);
  if (!checked.ok) return undefined;
  countRedactions(checked.data, redacted);
  return {
    id: place.id,
    type: definition.type,
    schemaVersion: definition.schemaVersion,
    ts: new Date(place.at).toISOString(),
    session: place.session.slice(0, 200),
    project: place.project,
    data: checked.data,
  };
}
