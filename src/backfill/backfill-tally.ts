import { MARKER_SOURCE } from '../redaction/redaction-marker.js';

const MARKERS = new RegExp(MARKER_SOURCE.replace(String.raw`[\w-]+`, String.raw`([\w-]+)`), 'g');

/** Counts by name, as the report and RecordBackfilled keep them. */
export type Counts = Record<string, number>;

export function bump(counts: Counts, name: string, by = 1): void {
  counts[name] = (counts[name] ?? 0) + by;
}

/** The secrets redaction took out of an event's data, by kind (the marker's), never their values. */
export function countRedactions(data: unknown, into: Counts): void {
  const text = JSON.stringify(data);
  if (!text.includes('[REDACTED:')) return;
  for (const match of text.matchAll(MARKERS)) bump(into, match[1]!);
}

/** What one run of `engram backfill` read, derived and stored. */
export class BackfillTally {
  readonly sessions = new Set<string>();
  /** Sessions known only from history.jsonl (their transcript was cleaned up). */
  readonly historyOnly = new Set<string>();
  /** Sessions the hooks captured live: only what came before that was read. */
  readonly liveSessions = new Set<string>();
  prompts = 0;
  toolCalls = 0;
  toolFailures = 0;
  compactions = 0;
  subagents = 0;
  /** Events derived, and of them, how many the log did not hold yet (would not, in a dry run). */
  events = 0;
  added = 0;
  /** Files read, and files passed over because an earlier run read them as they are. */
  filesRead = 0;
  filesUnchanged = 0;
  bytesRead = 0;
  readonly redacted: Counts = {};
  readonly skipped: Counts = {};
  /** Files or directories that could not be read, and why. */
  readonly unreadable: Array<{ path: string; reason: string }> = [];
  /** Project directories whose name does not decode to a path that exists, and that no line names. */
  readonly undecodedSlugs = new Set<string>();
}

/** The final report: what was read and stored, secrets by kind, what could not be read and why. */
export function renderBackfillReport(tally: BackfillTally, how: { dryRun: boolean; claudeDir: string }): string {
  const lines: string[] = [];
  const list = (counts: Counts) =>
    Object.entries(counts)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  lines.push(`${how.dryRun ? 'dry run, nothing appended: ' : ''}backfill of ${how.claudeDir}`);
  lines.push(`  files read: ${tally.filesRead} (${(tally.bytesRead / 1e6).toFixed(1)} MB), unchanged since an earlier run: ${tally.filesUnchanged}`);
  lines.push(`  sessions: ${tally.sessions.size} (${tally.historyOnly.size} known only from history.jsonl, ${tally.liveSessions.size} also captured live by the hooks)`);
  lines.push(`  prompts: ${tally.prompts}, tool calls: ${tally.toolCalls} (${tally.toolFailures} failed), compactions: ${tally.compactions}, subagents: ${tally.subagents}`);
  lines.push(`  events: ${tally.events} derived, ${tally.added} ${how.dryRun ? 'would be new' : 'appended'}, ${tally.events - tally.added} already in the log`);
  const secrets = Object.values(tally.redacted).reduce((a, b) => a + b, 0);
  lines.push(`  secrets redacted: ${secrets}${secrets > 0 ? ` (${list(tally.redacted)})` : ''}`);
  if (Object.keys(tally.skipped).length > 0) lines.push(`  lines passed over: ${list(tally.skipped)}`);
  for (const slug of [...tally.undecodedSlugs].sort()) lines.push(`  project directory ${slug}: its name does not decode to an existing path and no line names its cwd`);
  for (const { path, reason } of tally.unreadable) lines.push(`  could not read ${path}: ${reason}`);
  return `${lines.join('\n')}\n`;
}
