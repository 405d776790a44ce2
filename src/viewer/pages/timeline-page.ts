import { z } from 'zod';
import type { SessionRecord } from '../../projections/session-record.js';
import type { SessionDay } from '../../projections/sessions.js';
import { eventTable } from '../event-line.js';
import { html } from '../html.js';
import { clip, layout } from '../layout.js';
import { href, type ViewContext } from '../view-context.js';
import { newestEvents, type ViewerSource } from '../viewer-source.js';

/** Days of sessions on one page of the timeline, at most. */
export const DAYS_PER_PAGE = 14;
/** Whole days are added to a page until it holds this many sessions. */
export const SESSIONS_PER_PAGE = 100;
/** The latest events shown under the sessions. */
const LATEST_EVENTS = 40;

export const timelineQuery = z.object({
  project: z.string().max(4096).optional(),
  /** Show days before this one (YYYY-MM-DD): the next page. */
  before: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
});
export type TimelineQuery = z.infer<typeof timelineQuery>;

/**
 * Projects, then sessions by the day they began (newest first, a page of days at a time), each
 * with its prompts, tool calls, failures, compactions and whether it was distilled, then the
 * latest events of the log. Reads the sessions projection's day rows, never the whole log.
 */
export async function timelinePage(source: ViewerSource, ctx: ViewContext, query: TimelineQuery): Promise<string> {
  const projects = new Map<string, { sessions: number; last: string }>();
  const days: SessionDay[] = [];
  for await (const [key, value] of source.rows('sessions').entries('day:')) {
    void key;
    const day = value as SessionDay;
    const known = projects.get(day.project) ?? { sessions: 0, last: '' };
    known.sessions += day.sessions.length;
    if (day.day > known.last) known.last = day.day;
    projects.set(day.project, known);
    if (query.project !== undefined && query.project !== '' && day.project !== query.project) continue;
    if (query.before !== undefined && day.day >= query.before) continue;
    days.push(day);
  }
  days.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : a.project < b.project ? -1 : 1));
  const dayNames: string[] = [];
  let sessionsShown = 0;
  for (const day of days) {
    if (dayNames.at(-1) !== day.day) {
      if (dayNames.length === DAYS_PER_PAGE || sessionsShown >= SESSIONS_PER_PAGE) break;
      dayNames.push(day.day);
    }
    sessionsShown += day.sessions.length;
  }
  const shownDays = new Set(dayNames);
  const byDay = new Map<string, SessionRecord[]>();
  for (const day of days) {
    if (!shownDays.has(day.day)) continue;
    const list = byDay.get(day.day) ?? [];
    list.push(...day.sessions);
    byDay.set(day.day, list);
  }
  // Whether each shown session was distilled: the trace keeps it, a look-up per shown session.
  const trace = source.rows('trace');
  const distilled = new Set<string>();
  for (const sessions of byDay.values()) {
    for (const s of sessions) if (((await trace.get(`session:${s.session}`)) as SessionRecord | undefined)?.distilledThrough !== undefined) distilled.add(s.session);
  }
  const moreDays = days.some((d) => !shownDays.has(d.day));
  const latest = await newestEvents(source, source.head + 1, LATEST_EVENTS, (e) => query.project === undefined || query.project === '' || e.project === query.project, 5_000);
  const projectList = [...projects].sort((a, b) => (a[1].last < b[1].last ? 1 : -1));
  const body = html`
<h2>Projects</h2>
<table id="projects"><thead><tr><th>project</th><th>sessions</th><th>last active</th></tr></thead><tbody>
<tr><td><a href="${href(ctx, '/timeline')}">${query.project ? 'all projects' : html`<b>all projects</b>`}</a></td><td></td><td></td></tr>
${projectList.map(([project, p]) => html`<tr><td><a href="${href(ctx, '/timeline', { project })}">${project === query.project ? html`<b>${clip(project, 90)}</b>` : clip(project, 90)}</a></td><td class="n">${p.sessions}</td><td>${p.last}</td></tr>`)}
</tbody></table>
<h2>Sessions by day</h2>
${dayNames.length === 0 ? html`<p class="muted">No sessions yet.</p>` : ''}
<div id="days">${dayNames.map((day) => html`<h3>${day}</h3><table class="day"><thead><tr><th>session</th><th>project</th><th>began</th><th>prompts</th><th>tool calls</th><th>failures</th><th>compactions</th><th>ended</th><th>distilled</th></tr></thead><tbody>
${(byDay.get(day) ?? []).sort((a, b) => b.lastSeq - a.lastSeq).map((s) => html`<tr class="session-row"><td><a class="session" href="${href(ctx, '/log', { session: s.session, before: s.lastSeq + 1 })}">${s.session.slice(0, 12)}</a></td>
<td>${clip(s.project, 40)}</td><td class="muted">${(s.startedAt ?? s.firstEventAt).slice(11, 16)}</td><td class="n">${s.prompts}</td><td class="n">${s.toolCalls}</td>
<td class="n${s.toolFailures > 0 ? ' fail' : ''}">${s.toolFailures > 0 ? `✗ ${s.toolFailures}` : '0'}</td><td class="n">${s.compactions}</td><td>${s.endedCleanly ? s.endReason ?? 'yes' : html`<span class="muted">open or lost</span>`}</td><td>${distilled.has(s.session) ? '✓' : ''}</td></tr>`)}
</tbody></table>`)}</div>
${moreDays ? html`<div class="pager"><a id="older-days" href="${href(ctx, '/timeline', { project: query.project, before: dayNames[dayNames.length - 1] })}">older days →</a></div>` : ''}
<h2>Latest events</h2>
${eventTable(ctx, latest.events)}
${latest.next !== undefined ? html`<div class="pager"><a href="${href(ctx, '/log', { project: query.project, before: latest.next })}">older events →</a></div>` : ''}`;
  return layout(ctx, query.project ? `Timeline: ${clip(query.project, 60)}` : 'Timeline', 'timeline', body);
}
