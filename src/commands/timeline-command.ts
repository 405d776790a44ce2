import { z } from 'zod';
import type { SessionDay } from '../projections/sessions.js';
import type { SessionRecord } from '../projections/session-record.js';
import { isDistilled } from '../projections/trace.js';
import { distilledLabel } from '../projections/trace-line.js';
import { defineCommand } from './command.js';

/** One session of the timeline: what it did, and its one-line trace. */
export interface TimelineSession {
  session: string;
  project: string;
  /** The day it began (its first event's), which holds it in the sessions view. */
  day: string;
  startedAt: string | null;
  endedAt: string | null;
  endReason: string | null;
  lastEventAt: string;
  prompts: number;
  toolCalls: number;
  toolFailures: number;
  corrections: number;
  compactions: number;
  endedCleanly: boolean;
  /** Distilled as far as its latest activity. */
  distilled: boolean;
  trace: string;
}

const isoOrDay = z.string().regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/, 'a date (YYYY-MM-DD) or an ISO time with its zone');

/**
 * `timeline` (the MCP server's): sessions, the latest begun first, each with its trace line.
 * Reads the sessions projection's day rows (one per project and day, never the log) and the
 * trace projection's row of each session it prints. For one project it reads its days newest
 * first and stops once it has `limit` sessions, so a request costs the days it shows, not the
 * history; across every project it reads every day row. Prints JSON: `sessions`, and `more`
 * when sessions beyond the limit fit too.
 */
export const timelineCommand = defineCommand({
  name: 'timeline',
  access: 'read',
  args: z.object({
    /** One project's sessions; absent: every project's. */
    project: z.string().max(4096).optional(),
    /** Sessions begun at or after this time (a date: its start, UTC). */
    since: isoOrDay.optional(),
    /** Sessions begun at or before this time (a date: its end, UTC). */
    until: isoOrDay.optional(),
    /** Default 20. */
    limit: z.number().int().positive().max(500).default(20),
  }),
  async run(engine, args, output) {
    const since = args.since === undefined ? undefined : args.since.length === 10 ? `${args.since}T00:00:00.000Z` : new Date(args.since).toISOString();
    const until = args.until === undefined ? undefined : args.until.length === 10 ? `${args.until}T23:59:59.999Z` : new Date(args.until).toISOString();
    const begun = (record: SessionRecord) => record.startedAt ?? record.firstEventAt;
    const fits = (record: SessionRecord) => (since === undefined || begun(record) >= since) && (until === undefined || begun(record) <= until);
    const latestFirst = (a: { record: SessionRecord }, b: { record: SessionRecord }) => (begun(a.record) < begun(b.record) ? 1 : begun(a.record) > begun(b.record) ? -1 : b.record.lastSeq - a.record.lastSeq);
    const found: Array<{ day: string; record: SessionRecord }> = [];
    let more = false;
    const rows = engine.runner.rowsOf('sessions');
    if (args.project !== undefined) {
      // A session lives in the day it began: days after `until` began nothing in range, days before `since` neither.
      for await (const [, row] of rows.entries(`day:${args.project}\n`, { reverse: true })) {
        const day = row as SessionDay;
        if (until !== undefined && day.day > until.slice(0, 10)) continue;
        if (since !== undefined && day.day < since.slice(0, 10)) break;
        const ofDay = day.sessions.filter(fits).map((record) => ({ day: day.day, record })).sort(latestFirst);
        if (found.length >= args.limit && ofDay.length > 0) {
          more = true;
          break;
        }
        found.push(...ofDay);
      }
    } else {
      for await (const [, row] of rows.entries('day:')) {
        const day = row as SessionDay;
        for (const record of day.sessions) if (fits(record)) found.push({ day: day.day, record });
      }
      found.sort(latestFirst);
    }
    if (found.length > args.limit) more = true;
    const trace = engine.runner.rowsOf('trace');
    const sessions: TimelineSession[] = [];
    for (const { day, record } of found.slice(0, args.limit)) {
      const traced = (await trace.get(`session:${record.session}`)) as SessionRecord | undefined;
      const distilled = traced !== undefined && isDistilled(traced);
      sessions.push({
        session: record.session,
        project: record.project,
        day,
        startedAt: record.startedAt,
        endedAt: record.endedAt,
        endReason: record.endReason,
        lastEventAt: record.lastEventAt,
        prompts: record.prompts,
        toolCalls: record.toolCalls,
        toolFailures: record.toolFailures,
        corrections: record.corrections,
        compactions: record.compactions,
        endedCleanly: record.endedCleanly,
        distilled,
        trace: `${record.prompts} prompt${record.prompts === 1 ? '' : 's'}, ${record.toolCalls} tool call${record.toolCalls === 1 ? '' : 's'}${record.toolFailures > 0 ? ` (${record.toolFailures} failed)` : ''}${record.compactions > 0 ? `, ${record.compactions} compaction${record.compactions === 1 ? '' : 's'}` : ''} · ${record.endedCleanly ? 'ended' : 'open or cut off'} · ${distilledLabel(distilled, traced?.distilledVia)}`,
      });
    }
    await output.out(`${JSON.stringify({ sessions, more })}\n`);
    return 0;
  },
});
