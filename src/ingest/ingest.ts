import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { describeJsonError } from '../describe-json-error.js';
import { EngramError, isEngramError } from '../errors.js';
import type { EventCatalog } from '../events/catalog.js';
import { describeIssues } from '../events/describe-issues.js';
import { envelopeSchema, type Envelope } from '../events/envelope.js';
import { writerAlive } from '../spool/process-start.js';
import { spoolFileMicros, spoolTmpWriter } from '../spool/spool-file-name.js';
import { redactText } from '../redaction/redact.js';
import type { EventLog } from '../log/event-log.js';
import type { EngramPaths } from '../paths.js';
import { recordLostWrites } from './record-lost-writes.js';

export interface IngestOptions {
  /** Spool files per log append. Default 500. */
  batchSize?: number;
  /**
   * A file in spool/tmp whose writer is gone (its name carries the hook's pid and process start
   * time, checked in /proc) is ingested from there at once if it is whole, else rejected; one
   * whose writer is alive is never taken, however old. Where the writer cannot be asked (no
   * /proc, a name without it), a file this old (by its name and by its mtime, whichever is
   * older) is taken as a dead hook's. Past this age a live writer's file also stops holding
   * newer files back. Default 10 s: the longest hook timeout engram installs (hook-table.ts).
   */
  staleTmpMs?: number;
  /**
   * How long a file named ahead of this clock (by more than the clock margin) waits before it is
   * taken anyway. Default 2000 ms. Every process on this machine reads the same wall clock, so
   * such a name was not read from it: it comes from a clock that was stepped, or from another
   * machine or a VM whose clock runs ahead. Waiting a little keeps exact order with a writer
   * whose clock is off by a second or two; a name further ahead says nothing about order, and
   * waiting for the clock to reach it (hours, for a clock step) would only hold the file, and
   * every `worker --drain`, hostage. The file is then taken after the files named before it.
   */
  futureWaitMs?: number;
}

/**
 * Clocks of different processes agree to within microseconds (each reads the same wall clock;
 * hooks through a wall-clock anchor and a monotonic clock, the worker directly); this margin absorbs that,
 * the worker's millisecond resolution, and any small clock step.
 */
export const CLOCK_MARGIN_MICROS = 5_000;

export interface IngestReport {
  ingested: number;
  duplicates: number;
  rejected: number;
  /** Complete files left for a later pass: a hook that ran before them may still be writing. */
  waiting: number;
  /**
   * Files of an event type or schemaVersion this engram does not read, written by a newer one:
   * left in the spool for a newer worker, never rejected, and holding back no other file.
   */
  newer: number;
  /** Files named ahead of this clock, taken after `futureWaitMs` (counted in `ingested` too). */
  late: number;
  /**
   * Files that could not be read, removed or moved (permissions, I/O errors): left where they
   * are; `problems` says what failed. One whose event was appended is never appended again.
   */
  stuck: number;
  /** One line per kind of problem behind `stuck`, for the drain's report and the worker's log. */
  problems: string[];
  /** Hook events found lost this pass (markers in spool/lost, see record-lost-writes.ts), now on record. */
  lost: number;
}

export function emptyIngestReport(): IngestReport {
  return { ingested: 0, duplicates: 0, rejected: 0, waiting: 0, newer: 0, late: 0, stuck: 0, problems: [], lost: 0 };
}

/**
 * What one engine remembers between passes, so that no pass redoes or recounts another's work.
 * Keys are `new/<name>` and `tmp/<name>`; entries for files that are gone are dropped each pass.
 */
export interface IngestMemory {
  /** Files whose events the log holds but that could not be removed: only their removal is retried. */
  appended: Set<string>;
  /** Files this engram cannot read (see IngestReport.newer): not read again. */
  newer: Set<string>;
  /** Bad files that could not be moved to spool/rejected, with their reason: the move is retried. */
  unmovable: Map<string, string>;
  /** When each file named ahead of the clock was first seen, in monotonic ms. */
  firstSeen: Map<string, number>;
}

export function ingestMemory(): IngestMemory {
  return { appended: new Set(), newer: new Set(), unmovable: new Map(), firstSeen: new Map() };
}

interface Context {
  log: EventLog;
  catalog: EventCatalog;
  paths: EngramPaths;
  /** Wall-clock microseconds, on the clock hooks name their files by: systemClockMicros in a worker. */
  nowMicros: () => number;
  /** Carried from pass to pass by the engine. Default: a fresh one, as for a one-off pass. */
  memory?: IngestMemory;
}

/** A file to ingest: where it sits and its name. */
interface Entry {
  dir: string;
  key: string;
  name: string;
}

/**
 * Moves spool files into the log, in spool order. Crash-safe at every step: a file is removed
 * only after the log holds its event, and the log skips ids it already has, so a file read
 * twice after a crash is stored once.
 */
export async function ingestSpool(ctx: Context, options: IngestOptions = {}): Promise<IngestReport> {
  const report = emptyIngestReport();
  const memory = ctx.memory ?? ingestMemory();
  const problems = new Set<string>();
  // Exact spool order, without guessing. A file is taken only if it was named before this pass
  // read the clock (`now`) and before every hook still writing in spool/tmp started:
  // - a hook not yet in spool/tmp when we list it creates its tmp file later, and names its
  //   final file after that, so later than `now` (we read `now` before listing);
  // - a hook that is in spool/tmp names its final file later than its tmp name.
  // So no file can arrive with a name before one already ingested. This holds because every
  // reading is of the same wall clock (the worker's `now` is Date.now(), never a monotonic clock
  // that stops while the machine sleeps and would then hold back every new file for as long as
  // the sleep lasted), to within CLOCK_MARGIN_MICROS, which the cutoff leaves out. Where the
  // premise fails, order is given up for that file and nothing else: a hook stalled longer than
  // `staleTmpMs` (its file no longer holds newer ones back), a hook that died (its file is
  // taken from spool/tmp), a file named ahead of the
  // clock (taken after `futureWaitMs`, see there), a file only a newer engram reads (left for
  // it), and a backward clock step larger than the margin between our look and a hook's naming.
  const now = ctx.nowMicros();
  const monotonicNow = performance.now();
  const staleTmp = (options.staleTmpMs ?? 10_000) * 1000;
  const futureWait = options.futureWaitMs ?? 2000;
  const present = new Set<string>();
  // tmp/ before new/: the argument above needs the in-flight set as of `now`.
  const { oldestLive, recovered } = scanTmp(ctx, memory, now, staleTmp, report, problems, present);
  const cutoff = Math.min(oldestLive, now) - CLOCK_MARGIN_MICROS;
  const take: Entry[] = [...recovered];
  for (const name of listNames(ctx.paths.spoolNew)) {
    const key = `new/${name}`;
    present.add(key);
    const entry = { dir: ctx.paths.spoolNew, key, name };
    if (settled(ctx, memory, entry, report, problems)) continue;
    const micros = spoolFileMicros(name);
    if (micros === undefined) {
      reject(ctx.paths, memory, entry, 'not a spool file name', report, problems);
    } else if (micros < cutoff) {
      take.push(entry);
    } else if (micros > now + CLOCK_MARGIN_MICROS) {
      const first = memory.firstSeen.get(key) ?? monotonicNow;
      memory.firstSeen.set(key, first);
      if (monotonicNow - first >= futureWait) {
        take.push(entry);
        report.late++;
      } else report.waiting++;
    } else report.waiting++;
  }
  forgetGone(memory, present);
  // Names start with their clock reading, so by name is by time, across both directories.
  take.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const batchSize = options.batchSize ?? 500;
  for (let start = 0; start < take.length; start += batchSize) {
    const events: Envelope[] = [];
    const files: Entry[] = [];
    for (const entry of take.slice(start, start + batchSize)) {
      const path = join(entry.dir, entry.name);
      try {
        const read = readSpoolFile(ctx.catalog, path);
        if ('newer' in read) {
          memory.newer.add(entry.key);
          report.newer++;
          continue;
        }
        events.push(read.envelope);
        files.push(entry);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue;
        if (isEngramError(err)) {
          const where = entry.dir === ctx.paths.spoolTmp ? 'left in spool/tmp by a hook that died, and ' : '';
          reject(ctx.paths, memory, entry, `${where}${err.code}: ${err.message}`, report, problems);
        } else {
          // Unreadable is not invalid: the file stays, and is read again next pass.
          report.stuck++;
          problems.add(`cannot read files in ${entry.dir} (${code ?? describe(err)}): they stay there until they can be read`);
        }
      }
    }
    const result = await ctx.log.append(events);
    report.ingested += result.appended.length;
    report.duplicates += result.duplicates.length;
    for (const entry of files) removeIngested(memory, entry, report, problems);
  }
  try {
    report.lost = await recordLostWrites(ctx);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.add(`cannot count the hook events lost in ${ctx.paths.spoolLost} (${code ?? describe(err)}): they are counted once it can be written`);
  }
  report.problems = [...problems];
  return report;
}

/**
 * Reads and checks one spool file without following a link or blocking on a fifo: an envelope
 * whose data its event type's schema accepts, or `newer` when the type or its schemaVersion is
 * one this engram does not know. Throws an EngramError for a file that is not a valid event;
 * its message never quotes the file's content (it may be anything, even a secret).
 */
export function readSpoolFile(catalog: EventCatalog, path: string): { envelope: Envelope } | { newer: string } {
  const text = readRegularFile(path).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new EngramError('SPOOL_FILE_INVALID', describeJsonError(cause, text), { cause });
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw new EngramError('SPOOL_FILE_INVALID', `not an event envelope: ${describeIssues(envelope.error)}`);
  }
  const newer = newerThan(catalog, envelope.data);
  if (newer) return { newer };
  // Checked at the version it was written in; the log keeps it so and upcasts when read.
  catalog.read(envelope.data);
  return { envelope: envelope.data };
}

/** Why only a newer engram can read this event (its type or schemaVersion is unknown here), or undefined. */
export function newerThan(catalog: EventCatalog, envelope: { type: string; schemaVersion: number }): string | undefined {
  const definition = catalog.definition(envelope.type);
  if (!definition) return 'an event type this engram does not know';
  if (envelope.schemaVersion > definition.schemaVersion) {
    return `schemaVersion ${envelope.schemaVersion} of ${envelope.type}, newer than this engram reads`;
  }
  return undefined;
}

/**
 * O_NOFOLLOW: a link in the spool is rejected, never followed (its target could be any file of
 * the user's, and would end up quoted or ingested). O_NONBLOCK: opening a fifo must not hang.
 */
export function readRegularFile(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') {
      throw new EngramError('SPOOL_FILE_INVALID', 'a symbolic link, not a file: links in the spool are never followed', { cause: err });
    }
    throw err;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new EngramError('SPOOL_FILE_INVALID', 'not a regular file');
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Files in spool/tmp: the oldest write still in flight (Infinity when none), and the files of
 * hooks that died, whole or not, to ingest (or reject) from where they are. Not renamed into
 * spool/new first: a rename that fails (permissions) must not turn a valid event into a rejected
 * one, and ingesting in place needs no rename at all.
 */
function scanTmp(
  ctx: Context,
  memory: IngestMemory,
  now: number,
  staleTmp: number,
  report: IngestReport,
  problems: Set<string>,
  present: Set<string>,
): { oldestLive: number; recovered: Entry[] } {
  let oldestLive = Number.POSITIVE_INFINITY;
  const recovered: Entry[] = [];
  for (const name of listNames(ctx.paths.spoolTmp)) {
    const key = `tmp/${name}`;
    present.add(key);
    const entry = { dir: ctx.paths.spoolTmp, key, name };
    const parsed = spoolTmpWriter(name);
    const micros = parsed?.micros;
    let modified: number;
    try {
      modified = lstatSync(join(entry.dir, name)).mtimeMs * 1000;
    } catch {
      continue; // renamed into spool/new meanwhile
    }
    // The older of the two: a name ahead of the clock (a clock step) must not keep a dead
    // hook's file "in flight" until the clock gets there.
    const age = Math.max(micros === undefined ? Number.NEGATIVE_INFINITY : now - micros, now - modified);
    // A writer named in the file is asked (by pid and start time); one that is not, or cannot
    // be asked (no /proc), is judged by age.
    const alive = parsed?.writer ? writerAlive(parsed.writer.pid, parsed.writer.start) : undefined;
    if (alive === true || (alive === undefined && age < staleTmp)) {
      // A live writer, however slow (starved of CPU, stopped), finishes its own rename: its file
      // is never taken from it. It holds newer files back only while young; past staleTmp,
      // order is given up for it, so one stopped hook cannot stall every other.
      if (micros !== undefined && age < staleTmp) oldestLive = Math.min(oldestLive, micros);
      continue;
    }
    if (settled(ctx, memory, entry, report, problems)) continue;
    if (micros === undefined) reject(ctx.paths, memory, entry, 'not a spool file name (left in spool/tmp)', report, problems);
    else recovered.push(entry);
  }
  return { oldestLive, recovered };
}

/** Handles a file an earlier pass already dealt with; false when it is to be looked at afresh. */
function settled(ctx: Context, memory: IngestMemory, entry: Entry, report: IngestReport, problems: Set<string>): boolean {
  if (memory.newer.has(entry.key)) {
    report.newer++;
    return true;
  }
  if (memory.appended.has(entry.key)) {
    removeIngested(memory, entry, report, problems);
    return true;
  }
  const reason = memory.unmovable.get(entry.key);
  if (reason !== undefined) {
    reject(ctx.paths, memory, entry, reason, report, problems);
    return true;
  }
  return false;
}

function removeIngested(memory: IngestMemory, entry: Entry, report: IngestReport, problems: Set<string>): void {
  try {
    unlinkSync(join(entry.dir, entry.name));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      // The log holds its event; appending it again would only be skipped, so it never is.
      memory.appended.add(entry.key);
      report.stuck++;
      problems.add(`cannot remove ingested files from ${entry.dir} (${code ?? describe(err)}); their events are in the log: fix the directory's permissions`);
      return;
    }
  }
  memory.appended.delete(entry.key);
}

/**
 * Moves a bad file to spool/rejected with its reason beside it. The reason is written first, so
 * a crash cannot leave a rejected file without one; it is replaced, never followed, should a
 * link stand in its place. A file that cannot be moved stays, counted as stuck, and its move is
 * retried on the next pass.
 */
function reject(paths: EngramPaths, memory: IngestMemory, entry: Entry, reason: string, report: IngestReport, problems: Set<string>): void {
  const reasonPath = join(paths.spoolRejected, `${entry.name}.reason`);
  try {
    // Reasons say what and where, never what the file said; redacted all the same.
    writeFileAtomic(reasonPath, `${redactText(reason)}\n`);
    renameSync(join(entry.dir, entry.name), join(paths.spoolRejected, entry.name));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    rmSync(reasonPath, { force: true });
    memory.unmovable.set(entry.key, reason);
    report.stuck++;
    problems.add(`cannot move bad files from ${entry.dir} to ${paths.spoolRejected} (${code ?? describe(err)}): they stay where they are`);
    return;
  }
  memory.unmovable.delete(entry.key);
  report.rejected++;
}

function forgetGone(memory: IngestMemory, present: Set<string>): void {
  for (const set of [memory.appended, memory.newer]) for (const key of set) if (!present.has(key)) set.delete(key);
  for (const map of [memory.unmovable, memory.firstSeen]) for (const key of map.keys()) if (!present.has(key)) map.delete(key);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.startsWith('.'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
