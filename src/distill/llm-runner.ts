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
 * The distiller's LLM runs, one at a time. An LLM call is slow and costs money, and two at once
 * would only compete for the same rate limit, so runs wait in a queue of concurrency 1; the
 * queue is the runner's own, so it never holds up projections or other reactors.
 */
export class LlmRunner {
  readonly #queue = new PQueue({ concurrency: 1 });
  readonly #options: LlmRunnerOptions;

  constructor(options: LlmRunnerOptions = {}) {
    this.#options = { ...options };
  }

  /**
   * Queues one run and resolves with its result; never rejects. `signal` aborts it: still
   * waiting, it is taken out of the queue and never started; running, its process group is
   * stopped. Either way the result's reason is `aborted`.
   */
  async run(prompt: string, options: { signal?: AbortSignal } = {}): Promise<LlmRunResult> {
    const signal = options.signal;
    const runOptions: RunLlmOptions = { ...this.#options, ...(signal ? { signal } : {}) };
    try {
      return await this.#queue.add(() => runLlm(prompt, runOptions), signal ? { signal } : {});
    } catch (err) {
      // runLlm never rejects: only the queue does, for a run aborted while it waited.
      if (signal?.aborted) return { ok: false, reason: 'aborted', stdout: '', stderr: '', exitCode: null, command: llmCommand(this.#options.env ?? process.env).label };
      throw err;
    }
  }

  /** Runs waiting to start. */
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
