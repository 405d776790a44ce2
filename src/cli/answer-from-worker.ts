import { statSync } from 'node:fs';
import { BUILD_ID } from '../build-id.js';
import { clockFromEnv } from '../clock.js';
import { isOlderBuild } from '../compare-builds.js';
import { describeForUser, isEngramError } from '../errors.js';
import { liveWorker } from '../launch/live-worker.js';
import { resolvePaths } from '../paths.js';
import { foreignSocket } from '../socket/socket-owner.js';
import { isBrokenPipe } from './is-broken-pipe.js';
import { progressBar } from './progress-bar.js';
import { commandOnWorker, type Terminal } from './command-on-worker.js';

// The bin's fast lane (issue 22): a command the running worker answers, asked by a front end
// that loads no zod, no command table and no engine. It asks as the full CLI does, through
// commandOnWorker and askWorker (which loads zod only for a line it cannot check by hand), when
// a worker of this build or a newer one answers, and nothing else: every other case (no
// worker, an older one to hand over, a config.json to validate, a foreign socket, a worker
// that closes without a word) is left to the full CLI, which decides it as it always has. Nothing is asked of the worker before that is
// known, so leaving it costs nothing but time.

/** The engine command (and its args, as engine-cli.ts sends them) that `argv` asks the worker for, if it is one answered here. */
export function workerCommandOf(argv: readonly string[]): { name: string; args: Record<string, unknown> } | undefined {
  const [command, sub, ...flags] = argv;
  if (command !== 'log') return undefined;
  if (sub === 'dump' && flags.length === 0) return { name: 'log.dump', args: {} };
  const json = flags.length === 1 && flags[0] === '--json';
  if ((sub === 'stats' || sub === 'verify') && (flags.length === 0 || json)) return { name: `log.${sub}`, args: { json } };
  return undefined;
}

/**
 * `engram ARGV` answered by the running worker: the exit code, or undefined when it is not
 * answered here (the full CLI runs it). Prints what the full CLI prints, failures included.
 */
export async function answerFromWorker(argv: readonly string[], env: NodeJS.ProcessEnv, terminal: Terminal): Promise<number | undefined> {
  const command = workerCommandOf(argv);
  if (!command) return undefined;
  const paths = resolvePaths(env);
  // config.json is read and checked (with zod) by the full CLI; a home without one is the common case.
  try {
    statSync(paths.config);
    return undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
  }
  try {
    clockFromEnv(env);
  } catch {
    return undefined;
  }
  if (foreignSocket(paths)) return undefined;
  // The build handshake: an older worker hands over, which the full CLI does.
  const running = await liveWorker(paths);
  if (!running || isOlderBuild(running.build, BUILD_ID)) return undefined;

  try {
    return await commandOnWorker(paths, command, terminal, progressBar(terminal.stderr));
  } catch (err) {
    // Nothing ran: the full CLI decides what to do without a worker.
    if (isEngramError(err, 'WORKER_UNREACHABLE')) return undefined;
    if (isBrokenPipe(err)) return 0;
    terminal.stderr.write(`engram: ${describeForUser(err)}\n`);
    return 1;
  }
}
