import { EngramError, isEngramError } from '../errors.js';
import { ensureWorker } from '../launch/ensure-worker.js';
import type { EngramPaths } from '../paths.js';
import { askWorker } from '../socket/worker-client.js';
import type { Request, Response } from '../socket/socket-protocol.js';

export interface WorkerConnectionOptions {
  /** The CLI that runs the worker when none does. */
  cliPath: string;
  /**
   * How long a request waits for a worker to come up (started, or handing over) before it fails.
   * Default 30,000 ms; 3,000 ms with ENGRAM_WORKER_AUTOSTART=0, where only someone else starts one.
   */
  startTimeoutMs?: number;
}

/** What a command printed, and its exit code. */
export interface CommandResult {
  code: number;
  out: string;
  err: string;
}

/**
 * The MCP server's way to the log: the worker, over its socket. It never opens LevelDB itself,
 * so it runs beside the hooks, the CLI and the worker. The first request, and any that finds no
 * worker listening, starts one (as the hooks do, `ENGRAM_WORKER_AUTOSTART=0` aside) and tries
 * again until it answers. A request is only sent again when the worker answered nothing, so
 * nothing runs twice.
 */
export class WorkerConnection {
  readonly #paths: EngramPaths;
  readonly #env: NodeJS.ProcessEnv;
  readonly #options: WorkerConnectionOptions;
  #ensured = false;

  constructor(paths: EngramPaths, env: NodeJS.ProcessEnv, options: WorkerConnectionOptions) {
    this.#paths = paths;
    this.#env = env;
    this.#options = options;
  }

  /** Every answer the worker gave to one request. */
  async ask(request: Request): Promise<Response[]> {
    const deadline = Date.now() + (this.#options.startTimeoutMs ?? (this.#env.ENGRAM_WORKER_AUTOSTART === '0' ? 3_000 : 30_000));
    for (;;) {
      if (!this.#ensured) {
        // Also makes an older build's worker hand over, as a hook of this build would.
        await ensureWorker(this.#paths, this.#env, { cliPath: this.#options.cliPath });
        this.#ensured = true;
      }
      const answers: Response[] = [];
      try {
        await askWorker(this.#paths, request, (response) => answers.push(response));
        return answers;
      } catch (err) {
        if (!isEngramError(err, 'WORKER_UNREACHABLE')) throw err;
        if (Date.now() > deadline) {
          const why = this.#env.ENGRAM_WORKER_AUTOSTART === '0' ? ' (ENGRAM_WORKER_AUTOSTART=0: start one with `engram worker --detach`)' : `; see ${this.#paths.workerLog}`;
          throw new EngramError('WORKER_UNREACHABLE', `engram's worker did not answer${why}`, { cause: err });
        }
        this.#ensured = false;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Runs an engine command in the worker (see all-commands.ts) and collects what it printed. */
  async command(name: string, args: Record<string, unknown>): Promise<CommandResult> {
    const result: CommandResult = { code: 1, out: '', err: '' };
    let exited = false;
    for (const answer of await this.ask({ op: 'command', name, args, tty: false })) {
      if (answer.t === 'out') result.out += answer.text;
      else if (answer.t === 'err') result.err += answer.text;
      else if (answer.t === 'exit') (result.code = answer.code), (exited = true);
    }
    if (!exited) throw new EngramError('WORKER_PROTOCOL', `the worker closed the connection before ${name} finished`);
    return result;
  }
}
