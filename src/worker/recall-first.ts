/**
 * Holds the worker's ingest rounds while a prompt's recall is being answered. The prompt hook
 * writes its spool file while it waits for the answer, and a round (append, fold every lane,
 * write the views with their fsyncs) on the worker's one thread would run between the query's
 * embedding and its search, so the hook waited for the round too. The round is only put off: it
 * runs once the answers in flight are sent, or after `maxHoldMs` whatever happens to them.
 */
export interface RecallFirst {
  /** Runs `answer`, counted as in flight until it settles. */
  answer<T>(answer: () => Promise<T>): Promise<T>;
  /** False when nothing is being answered (run now); else `run` is called once they are (or after maxHoldMs), and true. */
  hold(run: () => void): boolean;
}

export function recallFirst(options: { maxHoldMs: number }): RecallFirst {
  let answering = 0;
  let held: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const run = held;
    held = undefined;
    // After the answer's own turn: its line goes to the socket before the round begins.
    if (run) setImmediate(run);
  };
  return {
    async answer(answer) {
      answering++;
      try {
        return await answer();
      } finally {
        if (--answering === 0) release();
      }
    },
    hold(run) {
      if (answering === 0) return false;
      held = run;
      timer ??= setTimeout(release, options.maxHoldMs);
      return true;
    },
  };
}
