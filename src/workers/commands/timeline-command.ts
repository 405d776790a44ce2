import { z } from 'zod';
import type { SessionDay } from '../../projections/sessions.js';
import type { SessionRecord } from '../../projections/session-record.js';
import { isDistilled } from '../../projections/trace.js';
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
 * `timeline` (the MCP server's): sessions, newest activity first, each with its trace line. Reads
 * the sessions projection's day rows (one per project and day, not the log) and the trace
 * projection's row of each session it prints. Prints JSON.
 */
export const timelineCommand = defineCommand({
  name: 'timeline',
  access: 'read',
  args: z.object({
    /** One project's sessions; absent: every project's. */
    project: z.string().max(4096).optional(),
    /** Sessions active at or after this time (a date is its start, UTC). */
    since: isoOrDay.optional(),
    /** Sessions begun at or before this time (a date is its end, UTC). */
    until: isoOrDay.optional(),
    /** Default 20. */
    limit: z.number().int().positive().max(500).default(20),
  }),
  async run(engine, args, output) {
    const since = args.since === undefined ? undefined : args.since.length === 10 ? `${args.since}T00:00:00.000Z` : new Date(args.since).toISOString();
    const until = args.until === undefined ? undefined : args.until.length === 10 ? `${args.until}T23:59:59.999Z` : new Date(args.until).toISOString();
    const untilDay = until?.slice(0, 10);
    const found: Array<{ day: string; record: SessionRecord }> = [];
    for await (const [, row] of engine.runner.rowsOf('sessions').entries(args.project === undefined ? 'day:' : `day:${args.project}\n`)) {
      const day = row as SessionDay;
      if (args.project !== undefined && day.project !== args.project) continue;
      // A session is kept in the day it began: a later day began nothing before `until`.
      if (untilDay !== undefined && day.day > untilDay) continue;
      for (const record of day.sessions.values()) {
        if (since !== undefined && record.lastEventAt < since) continue;
        if (until !== undefined && (record.startedAt ?? record.firstEventAt) > until) continue;
        found.push({ day: day.day, record });
      }
    }
    found.sort((a, b) => b.record.lastSeq - a.record.lastSeq);
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
        trace: `${record.prompts} prompt${record.prompts === 1 ? '' : 's'}, ${record.toolCalls} tool call${record.toolCalls === 1 ? '' : 's'}${record.toolFailures > 0 ? ` (${record.toolFailures} failed)` : ''}${record.compactions > 0 ? `, ${record.compactions} compaction${record.compactions === 1 ? '' : 's'}` : ''} · ${record.endedCleanly ? 'ended' : 'open or cut off'} · distilled ${distilled ? '✓' : 'pending'}`,
      });
    }
    await output.out(`${JSON.stringify({ total: found.length, sessions })}\n`);
    return 0;
  },
});
