import { closeSync, openSync, rmSync, utimesSync } from 'node:fs';
import { EngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import { askWorker, pingWorker } from '../socket/worker-client.js';

/**
 * Stops a running worker, waits until it has exited, and holds the start lock so no hook starts
 * another: what `migrate`, `log repair` and a whole `rebuild` need before they touch the log or
 * swap state. Returns the release of the lock.
 */
export async function takeLogAlone(paths: EngramPaths): Promise<() => void> {
  const pong = await pingWorker(paths);
  if (pong) {
    await askWorker(paths, { op: 'stop' }, () => undefined);
    await waitUntilGone(pong.pid);
  }
  return holdStartLock(paths.startLock);
}

// Hooks start a worker only if they can create the start lock; keeping it fresh keeps them off.
function holdStartLock(path: string): () => void {
  try {
    closeSync(openSync(path, 'a'));
  } catch {
    return () => undefined;
  }
  const timer = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // removed under us: nothing to keep fresh
    }
  }, 2000);
  return () => {
    clearInterval(timer);
    rmSync(path, { force: true });
  };
}

async function waitUntilGone(pid: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new EngramError('WORKER_UNREACHABLE', `worker ${pid} did not stop`);
}
