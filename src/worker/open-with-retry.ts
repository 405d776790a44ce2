import { isEngramError } from '../errors.js';
import { processRunning } from '../launch/live-worker.js';

export interface OpenWithRetryOptions {
  /** How long a locked log is waited for when no predecessor is named. Default 3000 ms. */
  lockWaitMs?: number;
  /** The pid of a worker handing the log over: waited for while it lives, up to `handOverWaitMs`. */
  after?: number;
  /** Default 120,000 ms. */
  handOverWaitMs?: number;
}

/**
 * `open()` until it stops failing with LOG_LOCKED: another process holds the log for a moment (a
 * command) or a predecessor is handing it over. `undefined` when the wait is over and the log is
 * still held: that process is the worker, and this one has nothing to do.
 */
export async function openWithRetry<T>(open: () => Promise<T>, options: OpenWithRetryOptions, log: (line: string) => void): Promise<T | undefined> {
  const started = Date.now();
  const deadline = started + (options.lockWaitMs ?? 3000);
  const handOverDeadline = started + (options.handOverWaitMs ?? 120_000);
  let said = false;
  for (;;) {
    try {
      return await open();
    } catch (err) {
      if (!isEngramError(err, 'LOG_LOCKED')) throw err;
      const waitingForPredecessor = options.after !== undefined && processRunning(options.after) && Date.now() < handOverDeadline;
      if (Date.now() > deadline && !waitingForPredecessor) return undefined;
      if (!said) log(options.after === undefined ? 'log is locked; waiting' : `waiting for worker ${options.after} to hand over the log`);
      said = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
