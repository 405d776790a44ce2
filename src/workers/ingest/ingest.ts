import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeError, EngramError } from '../../errors.js';
import type { EventCatalog } from '../../events/catalog.js';
import { describeIssues } from '../../events/describe-issues.js';
import { envelopeSchema, type Envelope } from '../../events/envelope.js';
import { spoolFileMicros } from '../../hooks/spool-file-name.js';
import type { EventLog } from '../../log/event-log.js';
import type { EngramPaths } from '../../paths.js';

export interface IngestOptions {
  /** Spool files per log append. Default 500. */
  batchSize?: number;
  /**
   * A file left in spool/tmp this long was written by a hook that died; it is recovered if it
   * parses, else rejected. Default 10 s.
   */
  staleTmpMs?: number;
}

/**
 * Clocks of different processes agree to within microseconds (each reads the wall clock at
 * start, then a monotonic one); this margin absorbs that and any small clock step.
 */
const CLOCK_MARGIN_MICROS = 5_000;

export interface IngestReport {
  ingested: number;
  duplicates: number;
  rejected: number;
  /** Complete files left for a later pass: a hook that ran before them may still be writing. */
  waiting: number;
}

interface Context {
  log: EventLog;
  catalog: EventCatalog;
  paths: EngramPaths;
  /** Wall-clock microseconds, on the same clock hooks name their files by. */
  nowMicros: () => number;
}

/**
 * Moves spool files into the log, in spool order. Crash-safe at every step: a file is removed
 * only after the log holds its event, and the log skips ids it already has, so a file read
 * twice after a crash is stored once.
 */
export async function ingestSpool(ctx: Context, options: IngestOptions = {}): Promise<IngestReport> {
  const report: IngestReport = { ingested: 0, duplicates: 0, rejected: 0, waiting: 0 };
  // Exact spool order, without guessing: a file is taken only if it was named before this pass
  // looked (`now`) and before every hook still writing in spool/tmp started. A hook not yet in
  // spool/tmp when we look names its file later than `now`; one that is there names it later
  // than its tmp name. So no file can ever arrive with a name before one already ingested.
  const now = ctx.nowMicros();
  const staleTmp = (options.staleTmpMs ?? 10_000) * 1000;
  // tmp/ before new/: the argument above needs the in-flight set as of `now`.
  const inFlight = recoverTmp(ctx, now, staleTmp, report);
  const ready = listNames(ctx.paths.spoolNew).sort();
  const cutoff = Math.min(inFlight, now) - CLOCK_MARGIN_MICROS;
  const take: string[] = [];
  for (const name of ready) {
    const micros = spoolFileMicros(name);
    if (micros === undefined) {
      reject(ctx.paths, name, `not a spool file name: ${name}`);
      report.rejected++;
    } else if (micros < cutoff) take.push(name);
    else report.waiting++;
  }
  const batchSize = options.batchSize ?? 500;
  for (let start = 0; start < take.length; start += batchSize) {
    const names = take.slice(start, start + batchSize);
    const events: Envelope[] = [];
    const files: string[] = [];
    for (const name of names) {
      try {
        events.push(readSpoolFile(ctx.catalog, join(ctx.paths.spoolNew, name)));
        files.push(name);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        reject(ctx.paths, name, describeError(err));
        report.rejected++;
      }
    }
    const result = await ctx.log.append(events);
    report.ingested += result.appended.length;
    report.duplicates += result.duplicates.length;
    for (const name of files) {
      try {
        unlinkSync(join(ctx.paths.spoolNew, name));
      } catch {
        // Already gone: another pass removed it after the same append.
      }
    }
  }
  return report;
}

/** Reads and checks one spool file: an envelope whose data its event type's schema accepts. */
export function readSpoolFile(catalog: EventCatalog, path: string): Envelope {
  const text = readFileSync(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new EngramError('SPOOL_FILE_INVALID', 'not JSON', { cause });
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw new EngramError('SPOOL_FILE_INVALID', `not an event envelope: ${describeIssues(envelope.error)}`);
  }
  // Checked at the version it was written in; the log keeps it so and upcasts when read.
  catalog.read(envelope.data);
  return envelope.data;
}

/** Returns the microseconds of the oldest live in-flight write (Infinity when none). */
function recoverTmp(ctx: Context, now: number, staleTmp: number, report: IngestReport): number {
  let oldest = Number.POSITIVE_INFINITY;
  for (const name of listNames(ctx.paths.spoolTmp)) {
    const micros = spoolFileMicros(name);
    const path = join(ctx.paths.spoolTmp, name);
    let age = micros === undefined ? Number.POSITIVE_INFINITY : now - micros;
    if (micros === undefined) {
      try {
        age = now - statSync(path).mtimeMs * 1000;
      } catch {
        continue;
      }
    }
    if (age < staleTmp) {
      if (micros !== undefined) oldest = Math.min(oldest, micros);
      continue;
    }
    // The hook died between writing and renaming: a whole file is recovered, a torn one rejected.
    try {
      readSpoolFile(ctx.catalog, path);
      if (micros === undefined) throw new EngramError('SPOOL_FILE_INVALID', `not a spool file name: ${name}`);
      renameSync(path, join(ctx.paths.spoolNew, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      reject(ctx.paths, name, `left in spool/tmp by a hook that died: ${describeError(err)}`, ctx.paths.spoolTmp);
      report.rejected++;
    }
  }
  return oldest;
}

/** Moves a file to spool/rejected with its reason beside it; the reason is written first. */
function reject(paths: EngramPaths, name: string, reason: string, from = paths.spoolNew): void {
  mkdirSync(paths.spoolRejected, { recursive: true });
  writeFileSync(join(paths.spoolRejected, `${name}.reason`), `${reason}\n`);
  try {
    renameSync(join(from, name), join(paths.spoolRejected, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.startsWith('.'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
