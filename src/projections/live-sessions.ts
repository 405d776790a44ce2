import type { DomainEvent } from '../events/catalog.js';
import { defineProjector, type Projector } from './projector.js';
import { rowChange } from './row-change.js';
import { keyCache } from './key-cache.js';

/** Events `engram backfill` derives from Claude Code's records carry ids with this prefix. */
export const BACKFILLED_ID_PREFIX = 'bf:';

const LIVE = 'l:';
/** A session's row (for a reader; the projector keeps its own keys, key-cache.ts). */
export const liveSessionKey = (session: string): string => LIVE + session;

/** When the hooks first reported a session. */
export interface LiveSession {
  readonly firstAt: string;
}


const hookActivity: DomainEvent['type'][] = [
  'SessionStarted', 'PromptSubmitted', 'ToolCalled', 'ToolFailed', 'CompactionStarted', 'TurnStopped', 'SubagentStopped', 'SessionEnded',
];

/**
 * Per session, the earliest event the hooks captured live (any hook event whose id is not a
 * backfill's). `engram backfill` reads only what a transcript says happened before that, so a
 * session the hooks saw is never recorded twice, and one they saw only from halfway is completed.
 * Rows only, no files; an event of a session already known writes nothing.
 */
export function liveSessionsProjector(): Projector<LiveSession> {
  // This lane's own keys (key-cache.ts): made with the projection, gone with it.
  const liveKeyOf = keyCache(LIVE);
  return defineProjector<LiveSession>({
    name: 'live-sessions',
    projectorVersion: 1,
    handles: hookActivity,
    evolve(state, event) {
      if (event.session === '' || event.id.startsWith(BACKFILLED_ID_PREFIX)) return [];
      const key = liveKeyOf(event.session);
      const before = state.get(key);
      if (before && notAfter(before.firstAt, event.ts)) return [];
      return [rowChange(key, { firstAt: event.ts })];
    },
  });
}

/**
 * Whether `a` is no later than `b`. ISO timestamps in UTC of the envelope's one form compare as
 * strings (no parse at every event); anything else by the time it names, as before.
 */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
function notAfter(a: string, b: string): boolean {
  if (a.length === 24 && b.length === 24 && CANONICAL.test(a) && CANONICAL.test(b)) return a <= b;
  return Date.parse(a) <= Date.parse(b);
}
