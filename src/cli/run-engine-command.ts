import { isEngramError } from '../errors.js';
import type { Clock } from '../clock.js';
import type { EngramPaths } from '../paths.js';
import type { CommandOutput } from '../commands/command.js';
import { commandOnWorker, type Terminal } from './command-on-worker.js';
import { isBrokenPipe } from './is-broken-pipe.js';
import { handOverIfOlder, HAND_OVER_WAIT_MS } from './hand-over-if-older.js';
import { progressBar } from './progress-bar.js';

export { isBrokenPipe };
export type { Terminal };

/** How long a command waits for a log that another process holds and no worker answers for. */
const LOCK_WAIT_MS = 15_000;

export interface EngineCommandContext {
  paths: EngramPaths;
  clock: Clock;
  terminal: Terminal;
  /** For ENGRAM_WORKER_AUTOSTART when an older worker hands over. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Ask a worker of an older build to hand over first (see hand-over-if-older.ts). Default true. */
  handOver?: boolean;
}

/**
 * Runs a command that needs the log: through the running worker when one holds it, else in
 * this process. When the log is locked but no worker answers yet (one is starting, or another
 * CLI command runs), it keeps trying both for a while. A reader that goes away (`| head`) ends
 * the command quietly, with 0.
 */
export async function runEngineCommand(name: string, args: Record<string, unknown>, ctx: EngineCommandContext): Promise<number> {
  const bar = progressBar(ctx.terminal.stderr);
  const handingOver = ctx.handOver !== false && (await handOverIfOlder(ctx.paths, ctx.env ?? process.env, ctx.terminal.stderr));
  const deadline = Date.now() + (handingOver ? HAND_OVER_WAIT_MS : LOCK_WAIT_MS);
  for (;;) {
    try {
      return await commandOnWorker(ctx.paths, { name, args }, ctx.terminal, bar);
    } catch (err) {
      if (!isEngramError(err, 'WORKER_UNREACHABLE')) throw err;
    }
    // No worker answers: the engine, in this process. Loaded only now, so that a command a
    // worker answers never loads LevelDB, LanceDB, the model or the engine (issue 22).
    const output: CommandOutput = {
      out: (text) => write(ctx.terminal.stdout, text),
      err: (text) => (bar.clear(), void ctx.terminal.stderr.write(text)),
      progress: (done, total, unit) => bar.show(done, total, unit),
    };
    const ran = await (await import('./run-in-process.js')).runInProcess(name, args, ctx, output, deadline, () => bar.clear());
    if (ran !== 'locked') return ran;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
