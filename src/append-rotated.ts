import { appendFileSync, renameSync, statSync } from 'node:fs';

export interface Rotation {
  /** The file is rotated before a write once it has reached this many bytes. */
  maxBytes: number;
  /** Previous files kept, at least 1: `<file>.1` (the newest) to `<file>.<keep>`; the oldest is dropped. */
  keep: number;
}

/** `logs/hooks.log`: a line per hook error. 1 MiB and one previous file: at most 2 MiB. */
export const HOOKS_LOG_ROTATION: Rotation = Object.freeze({ maxBytes: 1024 * 1024, keep: 1 });

/** `logs/worker.log`: starts, stops, failures. 4 MiB and two previous files: at most 12 MiB. */
export const WORKER_LOG_ROTATION: Rotation = Object.freeze({ maxBytes: 4 * 1024 * 1024, keep: 2 });

/**
 * Appends to a log file that is kept to a bounded size: one stat per write (cheap enough for a
 * hook, which writes here only when something went wrong), and renames when it is full. Two
 * writers rotating at the same instant can lose one previous file: these are diagnostics, and a
 * lock would cost every write. Throws what appendFileSync throws; rotation itself never does.
 */
export function appendRotated(path: string, text: string, rotation: Rotation): void {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    // not there yet
  }
  if (size >= rotation.maxBytes) {
    try {
      for (let i = rotation.keep - 1; i >= 1; i--) {
        try {
          renameSync(`${path}.${i}`, `${path}.${i + 1}`);
        } catch {
          // fewer previous files so far
        }
      }
      renameSync(path, `${path}.1`);
    } catch {
      // another writer rotated it first
    }
  }
  // 0600: hook and worker lines may quote what a session did.
  appendFileSync(path, text, { mode: 0o600 });
}
