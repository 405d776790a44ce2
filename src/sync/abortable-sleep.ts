/** Waits `ms`, or less when `signal` aborts (resolving, not throwing: the caller checks why). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    if (signal?.aborted) return done();
    signal?.addEventListener('abort', done, { once: true });
  });
}
