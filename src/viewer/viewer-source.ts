import type { EventLog } from '../log/event-log.js';
import type { StoredEnvelope } from '../events/envelope.js';
import type { CommittedRows } from '../engine/projection-runner.js';

/** The projections pages read (an as-of view replays these alone). */
export const VIEWED_PROJECTIONS = ['memories', 'sessions', 'trace', 'provenance'] as const;
export type ViewedProjection = (typeof VIEWED_PROJECTIONS)[number];

/**
 * Where a page reads from: the worker's live projections, or projections replayed to a past
 * seq (as-of-source.ts). Either way rows are the projections' committed rows and events come
 * from the one log, never past `head`.
 */
export interface ViewerSource {
  /** The last seq this source shows. */
  readonly head: number;
  rows(projection: ViewedProjection): CommittedRows;
  readonly log: EventLog;
}

/** Events `from..to` (inclusive), oldest first, in batches the log already reads by. */
export async function eventsBetween(source: ViewerSource, from: number, to: number): Promise<StoredEnvelope[]> {
  const events: StoredEnvelope[] = [];
  if (to < from || to < 1) return events;
  for await (const batch of source.log.read({ from: Math.max(1, from), to: Math.min(to, source.head), batchSize: 500 })) events.push(...batch);
  return events;
}

/**
 * The newest events before `before` that `keep` accepts, newest first: at most `limit`, looking
 * at no more than `scanLimit` events, so a page costs the same however long the log. `next` is
 * where an "older" link continues from (undefined at the start of the log).
 */
export async function newestEvents(
  source: ViewerSource,
  before: number,
  limit: number,
  keep: (event: StoredEnvelope) => boolean,
  scanLimit = 20_000,
): Promise<{ events: StoredEnvelope[]; next: number | undefined }> {
  const found: StoredEnvelope[] = [];
  let to = Math.min(before - 1, source.head);
  const floor = Math.max(0, to - scanLimit);
  const chunk = 500;
  while (to > floor && found.length < limit) {
    const from = Math.max(floor + 1, to - chunk + 1);
    const batch = await eventsBetween(source, from, to);
    for (let i = batch.length - 1; i >= 0 && found.length < limit; i--) {
      const event = batch[i]!;
      if (keep(event)) found.push(event);
      to = event.seq - 1;
    }
    if (batch.length === 0) to = from - 1;
  }
  return { events: found, next: to >= 1 ? to + 1 : undefined };
}
