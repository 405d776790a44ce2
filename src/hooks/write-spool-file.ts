import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Envelope } from '../events/envelope.js';
import { wallMicros } from '../events/event-id.js';
import type { EngramPaths } from '../paths.js';
import { leaveLostMarker } from '../spool/lost-marker.js';
import { ownStartTime } from '../spool/process-start.js';
import { spoolFileName, spoolTmpName } from '../spool/spool-file-name.js';

/**
 * One event, one file, maildir-style: written whole under spool/tmp, then renamed into
 * spool/new. A rename is atomic, so the worker never sees half a file.
 *
 * Both names start with a clock reading. The tmp name's is taken before the file exists; the
 * final name's after it exists, just before the rename: that one is the event's place in the
 * spool. So a hook the worker cannot see in spool/tmp will get a final name later than the
 * moment the worker looked, which is what lets the worker ingest in exact spool order (see
 * ingest.ts) without waiting a guessed "settle" time. The tmp name also carries this process's
 * start time, so the worker can tell this hook alive, however slow, from a dead one.
 *
 * When the file cannot be written (a full disk, an I/O error, a read-only file system), what was
 * begun is removed, so no empty or torn file is left for the worker to reject without a trace,
 * and an empty marker is left in its place (lost-marker.ts) for the worker to count as lost.
 * Then it throws, so the hook logs it and claims nothing.
 */
export function writeSpoolFile(paths: EngramPaths, envelope: Envelope, hook: string = envelope.type): string {
  const tmp = join(paths.spoolTmp, spoolTmpName(wallMicros(), process.pid, ownStartTime()));
  const stage = { written: false };
  try {
    return write(paths, tmp, JSON.stringify(envelope), stage);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Written whole, then gone before its rename: taken by a worker, so not lost.
    if (stage.written && code === 'ENOENT') throw err;
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Not even removable (EROFS, EIO): the worker rejects what it finds, and it is counted here.
    }
    const marked = leaveLostMarker(paths, hook, code, wallMicros());
    throw new Error(`the event could not be written to the spool (${code ?? (err as Error).message}); ${marked ? 'it is counted as lost' : 'not even its loss could be recorded'}`, { cause: err });
  }
}

function write(paths: EngramPaths, tmp: string, body: string, stage: { written: boolean }): string {
  try {
    writeFileSync(tmp, body);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // First run on this home: creating the directories on every run would cost each hook.
    // 0700 from the first mkdir, which may create ENGRAM_HOME itself: it holds prompts.
    mkdirSync(paths.spoolTmp, { recursive: true, mode: 0o700 });
    mkdirSync(paths.spoolNew, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, body);
  }
  stage.written = true;
  const target = join(paths.spoolNew, spoolFileName(wallMicros(), process.pid));
  try {
    renameSync(tmp, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(paths.spoolNew, { recursive: true, mode: 0o700 });
    renameSync(tmp, target);
  }
  return target;
}
