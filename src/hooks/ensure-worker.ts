import { closeSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngramPaths } from '../paths.js';

/** A start lock older than this belongs to a starter that died; the next hook may take it. */
const START_LOCK_STALE_MS = 15_000;

/**
 * Starts the worker, detached, when none runs. Many hooks fire at once (parallel hooks, many
 * sessions); an exclusive create of the start lock lets exactly one of them spawn it, and the
 * log's own LOCK stops a second worker should two ever start.
 */
export async function ensureWorker(paths: EngramPaths, env: NodeJS.ProcessEnv): Promise<void> {
  if (env.ENGRAM_WORKER_AUTOSTART === '0') return;
  if (workerAlive(paths)) return;
  if (!takeStartLock(paths.startLock)) return;
  // A worker removes the lock only after writing its pid file: one may have come up between
  // the first look and taking the lock, and a second would only wait on the log and leave.
  if (workerAlive(paths)) {
    try {
      unlinkSync(paths.startLock);
    } catch {
      // gone already
    }
    return;
  }
  // Loaded only here: most hook runs find the worker up and never pay for child_process.
  const { spawn } = await import('node:child_process');
  const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
  spawn(process.execPath, [cli, 'worker'], { detached: true, stdio: 'ignore', env }).unref();
}

/** Whether the pid file names a live engram worker. */
export function workerAlive(paths: EngramPaths): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(paths.pidFile, 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A recycled pid would otherwise pass for the worker forever; /proc says what runs there.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker');
  } catch {
    return true;
  }
}

function takeStartLock(lockPath: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lockPath, 'wx'));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      try {
        if (Date.now() - statSync(lockPath).mtimeMs < START_LOCK_STALE_MS) return false;
        unlinkSync(lockPath);
      } catch {
        return false;
      }
    }
  }
  return false;
}
