import { contentHash } from '../content-hash.js';
import { BACKFILLED_ID_PREFIX } from '../projections/live-sessions.js';

/**
 * The id of an event `engram backfill` derives, from where in Claude Code's records it comes
 * (the kind of event, the session, and a line's uuid or file and line number, a tool_use id):
 * the same record read twice, or by a run killed halfway and started again, gives the same ids,
 * and the log stores each once.
 */
export function backfillId(...parts: readonly (string | number)[]): string {
  return BACKFILLED_ID_PREFIX + contentHash(parts.join('\n'));
}
