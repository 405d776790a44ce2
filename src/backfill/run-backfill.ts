import type { Envelope } from '../events/envelope.js';
import { RecordBackfilled } from '../events/backfill-events.js';
import { projectSlug } from '../paths.js';
import { backfillId } from './backfill-id.js';
import type { BackfillScope } from './backfill-scope.js';
import { BackfillTally, bump, type Counts } from './backfill-tally.js';
import { listClaudeRecords, reasonOf } from './claude-records.js';
import { backfillHistory } from './history-backfill.js';
import { backfillTranscript, type TranscriptFile, type TranscriptOutcome } from './transcript-backfill.js';
import { sessionProjects } from './session-projects.js';

export interface BackfillOptions {
  /** Claude Code's config directory (CLAUDE_CONFIG_DIR). */
  claudeDir: string;
  /** The clock's reading: transcripts quiet for an hour before it have ended. */
  now: Date;
  /** `--since`: only what happened from then on. Default: everything. */
  since?: Date;
  /** `--project`: only sessions of this project (its own directory and those under it). Default: all. */
  project?: string;
  /** `--dry-run`: look up what would be new, append nothing. Default false. */
  dryRun?: boolean;
  /** Events per append (each append is atomic). Default 500. */
  batchSize?: number;
  signal?: AbortSignal;
  /** Called as records are read: bytes done and in all. */
  progress?: (done: number, total: number) => void;
}

/** What backfill needs of the log: only ever through these, so it runs wherever the log is held. */
export interface BackfillLog {
  /** Appends a batch atomically, skipping ids already there; the ids it appended. */
  append(events: Envelope[]): Promise<string[]>;
  has(ids: readonly string[]): Promise<boolean[]>;
  /** When the hooks first reported this session live (ISO time), if they ever did. */
  liveSince(session: string): Promise<string | undefined>;
}

/**
 * How much earlier than the hooks' first event a transcript line may be stamped and still be
 * that same event: the hook and Claude Code read the clock a moment apart. A line this close
 * before the live capture began is taken to be in it.
 */
const LIVE_MARGIN_MS = 2_000;

/**
 * `engram backfill`: turns Claude Code's own records into the events its hooks would have
 * written, oldest session first, appending them in atomic batches with ids derived from the
 * records, so that a run done twice, or killed and run again, stores each event once. A file read
 * to its end is marked by a RecordBackfilled (its id from the path, size, mtime and the run's
 * filters): an unchanged file is not read again. Returns the tally the report is made of.
 */
export async function runBackfill(options: BackfillOptions, log: BackfillLog): Promise<BackfillTally> {
  const tally = new BackfillTally();
  const dryRun = options.dryRun ?? false;
  const batchSize = options.batchSize ?? 500;
  const wanted = options.project;
  const records = await listClaudeRecords(options.claudeDir, { slugPrefix: wanted === undefined ? undefined : projectSlug(wanted) });
  tally.unreadable.push(...records.unreadable);
  const total = records.sessions.reduce((sum, s) => sum + s.bytes + s.subagents.reduce((n, a) => n + a.bytes, 0), 0) + (records.history?.bytes ?? 0);
  let done = 0;
  const advance = (bytes: number) => {
    done += bytes;
    options.progress?.(Math.min(done, total), total);
  };
  const scope: BackfillScope = {
    since: options.since?.getTime(),
    project: wanted === undefined ? undefined : (project) => project === wanted || project.startsWith(wanted.endsWith('/') ? wanted : `${wanted}/`),
    now: options.now.getTime(),
    liveFrom: async (session) => {
      const since = await log.liveSince(session);
      return since === undefined ? undefined : Date.parse(since) - LIVE_MARGIN_MS;
    },
    progress: advance,
    signal: options.signal,
  };
  // Filters change what a run reads of a file: a file read under others is read again.
  const filters = `${options.since?.toISOString() ?? ''}\n${wanted ?? ''}`;

  let batch: Envelope[] = [];
  const markers = new Set<string>();
  const flush = async () => {
    if (batch.length === 0) return;
    const events = batch;
    batch = [];
    let added: string[];
    if (dryRun) {
      const present = await log.has(events.map((event) => event.id));
      added = events.filter((_, i) => !present[i]).map((event) => event.id);
    } else added = await log.append(events);
    tally.added += added.filter((id) => !markers.has(id)).length;
  };
  const emit = async (event: Envelope) => {
    batch.push(event);
    if (batch.length >= batchSize) await flush();
  };
  const alreadyRead = async (id: string) => (await log.has([id]))[0] === true;
  const markRead = async (id: string, data: Record<string, unknown>, at: number) => {
    markers.add(id);
    await emit({ id, type: RecordBackfilled.type, schemaVersion: RecordBackfilled.schemaVersion, ts: new Date(at).toISOString(), session: '', project: '', data });
  };
  const readFile = async (file: TranscriptFile & { mtimeMs: number }): Promise<TranscriptOutcome | undefined> => {
    const id = backfillId('record', file.rel, file.bytes, file.mtimeMs, filters);
    if (scope.since !== undefined && file.mtimeMs < scope.since) return (advance(file.bytes), undefined);
    if (file.project !== undefined && scope.project !== undefined && !scope.project(file.project)) return (advance(file.bytes), undefined);
    if (await alreadyRead(id)) {
      tally.filesUnchanged++;
      advance(file.bytes);
      return undefined;
    }
    let outcome: TranscriptOutcome;
    try {
      outcome = await backfillTranscript(file, scope, emit);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      tally.unreadable.push({ path: file.rel, reason: reasonOf(err) });
      return undefined;
    }
    tally.filesRead++;
    tally.bytesRead += file.bytes;
    if (outcome.outOfScope) return (advance(file.bytes - outcome.bytes), outcome);
    addOutcome(tally, outcome);
    if (!dryRun) {
      await markRead(id, { source: file.source, path: file.rel, bytes: file.bytes, mtimeMs: file.mtimeMs, lines: outcome.lines, events: outcome.events, skipped: outcome.skipped, redacted: outcome.redacted }, file.mtimeMs);
    }
    return outcome;
  };

  // A transcript whose lines name no cwd and whose directory does not decode: history may know its project.
  const unplaced = records.sessions.filter((s) => s.project === undefined).map((s) => s.session);
  const fromHistory = records.history && unplaced.length > 0 ? await sessionProjects(records.history.path, new Set(unplaced), options.signal) : new Map<string, string>();
  const spans = new Map<string, Array<readonly [number, number]>>();
  for (const session of records.sessions) {
    session.project ??= fromHistory.get(session.session);
    if (session.project === undefined) tally.undecodedSlugs.add(session.rel.split('/')[1]!);
    else spans.set(session.project, [...(spans.get(session.project) ?? []), [session.firstAt, session.mtimeMs]]);
    const outcome = await readFile(session);
    const project = outcome?.project ?? session.project;
    for (const subagent of session.subagents) await readFile({ ...subagent, project });
  }
  if (records.history) {
    const history = records.history;
    const id = backfillId('record', history.rel, history.bytes, history.mtimeMs, filters);
    if (await alreadyRead(id)) {
      tally.filesUnchanged++;
      advance(history.bytes);
    } else {
      try {
        const outcome = await backfillHistory(history, { sessions: new Set(records.sessions.map((s) => s.session)), spans }, scope, emit);
        tally.filesRead++;
        tally.bytesRead += history.bytes;
        tally.prompts += outcome.prompts;
        tally.events += outcome.events;
        for (const session of outcome.sessions) (tally.sessions.add(session), tally.historyOnly.add(session));
        for (const session of outcome.liveSessions) tally.liveSessions.add(session);
        mergeCounts(tally.skipped, outcome.skipped);
        mergeCounts(tally.redacted, outcome.redacted);
        if (!dryRun) {
          await markRead(id, { source: 'history', path: history.rel, bytes: history.bytes, mtimeMs: history.mtimeMs, lines: outcome.lines, events: outcome.events, skipped: outcome.skipped, redacted: outcome.redacted }, history.mtimeMs);
        }
      } catch (err) {
        if (options.signal?.aborted) throw err;
        tally.unreadable.push({ path: history.rel, reason: reasonOf(err) });
      }
    }
  }
  await flush();
  return tally;
}

function addOutcome(tally: BackfillTally, outcome: TranscriptOutcome): void {
  tally.prompts += outcome.prompts;
  tally.toolCalls += outcome.toolCalls;
  tally.toolFailures += outcome.toolFailures;
  tally.compactions += outcome.compactions;
  tally.subagents += outcome.subagents;
  tally.events += outcome.events;
  for (const session of outcome.sessions) tally.sessions.add(session);
  for (const session of outcome.liveSessions) tally.liveSessions.add(session);
  mergeCounts(tally.skipped, outcome.skipped);
  mergeCounts(tally.redacted, outcome.redacted);
}

function mergeCounts(into: Counts, from: Counts): void {
  for (const [name, n] of Object.entries(from)) bump(into, name, n);
}
