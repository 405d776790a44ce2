import { readFileSync } from 'node:fs';

/**
 * When a process started, as Linux counts it (field 22 of /proc/<pid>/stat: clock ticks since
 * boot), or undefined where there is no /proc. A pid alone is reused; a pid with its start time
 * names one process for as long as the machine runs, so the worker can tell whether the hook
 * that began a spool/tmp file is still alive. Imports only node:fs: hooks bundle it.
 */
export function processStartTime(pid: number | 'self'): string | undefined {
  return parseStartTime(readFileSync(`/proc/${pid}/stat`, 'latin1'));
}

/** The start time of a /proc/<pid>/stat line; the name before it may hold spaces and parentheses. */
function parseStartTime(stat: string): string | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields from the third (state) on: starttime is the 22nd, so the 20th here.
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** This process's start time, read once; undefined without /proc. */
export function ownStartTime(): string | undefined {
  try {
    return processStartTime('self');
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that named itself `pid` started at `start` is alive: true or false where
 * /proc says, undefined where it cannot (no /proc, or a process we may not look at).
 */
export function writerAlive(pid: number, start: string): boolean | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    // No such pid: dead, if there is a /proc to ask at all.
    try {
      readFileSync('/proc/self/stat');
      return false;
    } catch {
      return undefined;
    }
  }
  // A zombie has finished: its file will never be renamed.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  if (state === 'Z' || state === 'X') return false;
  return parseStartTime(stat) === start;
}
