import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Envelope } from '../events/envelope.js';
import { wallMicros } from '../events/event-id.js';
import type { EngramPaths } from '../paths.js';
import { spoolFileName } from './spool-file-name.js';

/**
 * One event, one file, maildir-style: written whole under spool/tmp, then renamed into
 * spool/new. A rename is atomic, so the worker never sees half a file.
 *
 * Both names start with a clock reading. The tmp name's is taken before the file exists; the
 * final name's after it exists, just before the rename: that one is the event's place in the
 * spool. So a hook the worker cannot see in spool/tmp will get a final name later than the
 * moment the worker looked, which is what lets the worker ingest in exact spool order (see
 * ingest.ts) without waiting a guessed "settle" time.
 */
export function writeSpoolFile(paths: EngramPaths, envelope: Envelope): string {
  const tmp = join(paths.spoolTmp, spoolFileName(wallMicros(), process.pid));
  const body = JSON.stringify(envelope);
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
