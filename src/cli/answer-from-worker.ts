import { statSync } from 'node:fs';
import { BUILD_ID } from '../build-id.js';
import { clockFromEnv } from '../clock.js';
import { isOlderBuild } from '../compare-builds.js';
import { describeForUser, EngramError, isEngramError } from '../errors.js';
import { liveWorker } from '../launch/live-worker.js';
import { resolvePaths } from '../paths.js';
import { lineReader, MAX_RESPONSE_CHARS, unexpectedMessage } from '../socket/line-reader.js';
import { foreignSocket } from '../socket/socket-owner.js';
import { isBrokenPipe } from './is-broken-pipe.js';
import { progressBar } from './progress-bar.js';
import type { Terminal } from './run-engine-command.js';

// The bin's fast lane (issue 22): a command the running worker answers, asked by a front end
// that loads no zod, no command table and no engine. It does what main.ts and
// run-engine-command.ts do for such a command when a worker of this build or a newer one
// answers, and nothing else: every other case (no worker, an older one to hand over, a
// config.json to validate, a foreign socket, a worker that closes without a word) is left to the
// full CLI, which decides it as it always has. Nothing is asked of the worker before that is
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

/** What a command's answer is made of (socket-protocol.ts responseSchema's `out`, `err`, `progress` and `exit`). */
type CommandAnswer =
  | { t: 'out' | 'err'; text: string }
  | { t: 'progress'; done: number; total: number; unit?: 'events' | 'bytes' }
  | { t: 'exit'; code: number };

/**
 * One of the four answers a command gets, checked as responseSchema checks it; undefined for
 * anything else, which responseSchema itself then judges (a bad line costs zod, a good one not).
 */
function commandAnswer(json: unknown): CommandAnswer | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const m = json as Record<string, unknown>;
  if ((m.t === 'out' || m.t === 'err') && typeof m.text === 'string') return { t: m.t, text: m.text };
  if (m.t === 'exit' && Number.isSafeInteger(m.code)) return { t: 'exit', code: m.code as number };
  if (m.t === 'progress' && isNumber(m.done) && isNumber(m.total) && (m.unit === undefined || m.unit === 'events' || m.unit === 'bytes')) {
    return m.unit === undefined ? { t: 'progress', done: m.done, total: m.total } : { t: 'progress', done: m.done, total: m.total, unit: m.unit };
  }
  return undefined;
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

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

  // Only now: `engram --help` and every command the full CLI runs do not load node:net here.
  const { connect } = await import('node:net');
  const bar = progressBar(terminal.stderr);
  const readerGone = new AbortController();
  let code: number | undefined;
  const take = (answer: CommandAnswer) => {
    if (readerGone.signal.aborted) return;
    if (answer.t === 'out') {
      terminal.stdout.write(answer.text, (err) => {
        if (err) readerGone.abort(err);
      });
    } else if (answer.t === 'err') (bar.clear(), terminal.stderr.write(answer.text));
    else if (answer.t === 'progress') bar.show(answer.done, answer.total, answer.unit);
    else if (answer.t === 'exit') code = answer.code;
  };
  try {
    const reached = await ask(connect, paths.socket, { op: 'command', name: command.name, args: command.args, tty: Boolean(terminal.stderr.isTTY) }, take, readerGone.signal);
    if (!reached) return undefined;
    bar.clear();
    if (readerGone.signal.aborted) return 0;
    if (code === undefined) throw new EngramError('WORKER_PROTOCOL', 'the worker closed the connection before the command finished');
    return code;
  } catch (err) {
    if (isBrokenPipe(err)) return 0;
    terminal.stderr.write(`engram: ${describeForUser(err)}\n`);
    return 1;
  }
}

/**
 * worker-client.ts's askWorker for one command, but for what it checks each line with: false
 * when no worker was reached (nothing listens, or it closed without a word of answer), and
 * nothing ran; else as askWorker resolves or rejects.
 */
function ask(connect: typeof import('node:net').connect, socketPath: string, request: object, take: (answer: CommandAnswer) => void, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let connected = false;
    let answered = false;
    let failed: Error | undefined;
    // Once a line needs responseSchema's verdict, it and every line after it wait their turn.
    let judged: Promise<void> | undefined;
    const onBad = (reason: string) => {
      failed = new EngramError('WORKER_PROTOCOL', `the worker answered something unexpected: ${reason}`);
    };
    const onAbort = () => socket.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    const onJson = (json: unknown) => {
      const answer = judged ? undefined : commandAnswer(json);
      if (answer) {
        answered = true;
        take(answer);
        return;
      }
      judged = (judged ?? Promise.resolve()).then(async () => {
        const { responseSchema } = await import('../socket/socket-protocol.js');
        const parsed = responseSchema.safeParse(json);
        if (!parsed.success) return onBad(unexpectedMessage(parsed.error));
        answered = true;
        const checked = commandAnswer(parsed.data);
        if (checked) take(checked);
      });
    };
    socket.on('data', lineReader({ safeParse: (json: unknown) => ({ success: true as const, data: json }) }, onJson, onBad, MAX_RESPONSE_CHARS));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (connected) failed ??= err;
    });
    socket.on('close', () => {
      void (judged ?? Promise.resolve()).then(() => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) resolve(true);
        else if (!answered && !isEngramError(failed)) resolve(false);
        else if (failed) reject(failed);
        else resolve(true);
      }, reject);
    });
  });
}
