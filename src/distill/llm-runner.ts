import PQueue from 'p-queue';
import { llmCommand, runLlm, type LlmRunResult, type RunLlmOptions } from './run-llm.js';

export interface LlmRunnerOptions {
  /** The child's environment (see {@link RunLlmOptions.env}). Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where scratch directories are made. Default: `<ENGRAM_HOME>/scratch`. */
  scratchRoot?: string;
  /** Milliseconds one run may take, not counting its wait in the queue. Default: 120_000. */
  timeoutMs?: number;
  /** Milliseconds between SIGTERM and SIGKILL. Default: 2_000. */
  killGraceMs?: number;
  /** Bytes of stdout one run may print. Default: 1_000_000. */
  maxStdoutBytes?: number;
}

/**
 * The one queue of LLM runs in this process, whoever made the runner (the distiller, the post-turn
 * audit): two runners never have calls overlapping. Of the module, not of a runner, on purpose:
 * what it guards (the user's LLM account and its rate limit) is the process's, and a queue per
 * runner would let each new runner start a call beside the others'.
 */
const ONE_AT_A_TIME = new PQueue({ concurrency: 1 });

/**
 * The distiller's LLM runs, one at a time. An LLM call is slow and costs money, and two at once
 * would only compete for the same rate limit, so runs wait in a queue of concurrency 1, shared by
 * every runner of the process; it is apart from the engine's, so it never holds up projections or
 * other reactors.
 */
export class LlmRunner {
  readonly #queue = ONE_AT_A_TIME;
  readonly #options: LlmRunnerOptions;

  constructor(options: LlmRunnerOptions = {}) {
    this.#options = { ...options };
  }

  /**
   * Queues one run and resolves with its result; never rejects. `signal` aborts it: still
   * waiting, it resolves at once and is never started; running, its process group is stopped and
   * it resolves once the group is gone. Either way the result's reason is `aborted`.
   */
  run(prompt: string, options: { signal?: AbortSignal } = {}): Promise<LlmRunResult> {
    const signal = options.signal;
    const aborted: LlmRunResult = { ok: false, reason: 'aborted', stdout: '', stderr: '', exitCode: null, command: llmCommand(this.#options.env ?? process.env).label };
    if (signal?.aborted) return Promise.resolve(aborted);
    let started = false;
    // Not p-queue's own `signal`: it frees the slot the moment the signal fires, and the next run
    // would start while this one's process group is still being stopped.
    const task = this.#queue.add(() => {
      started = true;
      return runLlm(prompt, { ...this.#options, ...(signal ? { signal } : {}) });
    });
    if (!signal) return task;
    return new Promise((resolve) => {
      // Still waiting: answer now; when its turn comes, runLlm sees the signal and starts nothing.
      const onAbort = () => {
        if (!started) resolve(aborted);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void task.then((result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      });
    });
  }

  /** Runs waiting to start (this process's, whichever runner queued them). */
  get waiting(): number {
    return this.#queue.size;
  }

  /** Runs in progress: 0 or 1. */
  get running(): number {
    return this.#queue.pending;
  }

  /** Resolves once no run is waiting or in progress. */
  onIdle(): Promise<void> {
    return this.#queue.onIdle();
  }
}
