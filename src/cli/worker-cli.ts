import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILD_ID } from '../build-id.js';
import { isOlderBuild } from '../compare-builds.js';
import { describeError, EngramError, isEngramError } from '../errors.js';
import { requestHandOver } from '../launch/hand-over.js';
import { liveWorker, processRunning } from '../launch/live-worker.js';
import { askWorker, pingWorker } from '../socket/worker-client.js';
import { foreignSocket, foreignSocketAdvice, prepareSocketDir } from '../socket/socket-owner.js';
import type { CliCommand } from './cli-context.js';
import { runEngineCommand, type EngineCommandContext } from './run-engine-command.js';
import { workerStatus } from './worker-status.js';

/** The CLI's own entry: what a worker process runs. */
const MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

/** `engram worker …`. */
export const workerCli: CliCommand = (_command, args, { env, ctx }) => worker(args, env, ctx);

export async function worker(args: string[], env: NodeJS.ProcessEnv, ctx: EngineCommandContext): Promise<number> {
  const { paths, clock, terminal } = ctx;
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      detach: { type: 'boolean', default: false },
      drain: { type: 'boolean', default: false },
      after: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const sub = positionals[0];
  if (values.drain) return runEngineCommand('drain', {}, ctx);
  if (sub === 'status') {
    if (values.json) return workerStatus(ctx, true);
    const pong = await pingWorker(paths);
    // A worker that has closed its socket may still be closing its log: that is not "not running".
    const silent = pong ? undefined : await liveWorker(paths);
    terminal.stdout.write(
      pong
        ? `running: pid ${pong.pid}, build ${pong.build ?? 'from before build ids'}${isOlderBuild(pong.build, BUILD_ID) ? ` (older than this engram, ${BUILD_ID})` : ''}, since ${pong.startedAt}, log head ${pong.head}\n`
        : silent
          ? `not answering: pid ${silent.pid} holds the log but does not answer on its socket (starting or stopping; its log is ${paths.workerLog})\n`
          : 'not running\n',
    );
    return workerStatus(ctx, false);
  }
  if (sub === 'stop') return stopWorker(ctx, seconds(values.timeout, 15));
  if (sub !== undefined) throw new EngramError('USAGE', `unknown worker command ${JSON.stringify(sub)}`);
  if (values.detach) {
    // Said at once, not after waiting for a worker that will refuse to start (see socket-owner.ts).
    const foreign = foreignSocket(paths) ?? prepareSocketDir(paths);
    if (foreign) throw new EngramError('WORKER_NOT_YOURS', foreignSocketAdvice(foreign, paths));
    const running = await pingWorker(paths);
    if (running && !isOlderBuild(running.build, BUILD_ID)) {
      terminal.stdout.write(`already running: pid ${running.pid}\n`);
      return 0;
    }
    if (running && !(await requestHandOver(paths, BUILD_ID))) {
      throw new EngramError('WORKER_UNREACHABLE', `the older worker ${running.pid} did not agree to hand over; see ${paths.workerLog}`);
    }
    await mkdir(paths.logs, { recursive: true, mode: 0o700 });
    const out = openSync(paths.workerLog, 'a');
    const workerArgs = running ? ['worker', '--after', String(running.pid)] : ['worker'];
    const child = spawn(process.execPath, [MAIN, ...workerArgs], { detached: true, stdio: ['ignore', out, out], env });
    child.unref();
    // The child has its own copy; a caller that lives on (runEngram in a test) keeps no descriptor per start.
    closeSync(out);
    let pong: Awaited<ReturnType<typeof pingWorker>>;
    const started = await waitFor(async () => (pong = await pingWorker(paths)) !== undefined && pong.pid !== running?.pid, running ? 120_000 : 15_000);
    if (!started || !pong) throw new EngramError('WORKER_UNREACHABLE', `the worker did not start; see ${paths.workerLog}`);
    terminal.stdout.write(`started: pid ${pong.pid}\n`);
    return 0;
  }
  // The worker itself: loaded only for it, never for `worker status`, `stop` or `--detach`.
  const [{ runWorker }, { distillerFromEnv }, { skillsFromEnv }, { embedderChoice }, { settingsReport }, { withConfig }, { syncFromEnv }] = await Promise.all([
    import('../worker/worker.js'),
    import('../reactors/distiller-from-env.js'),
    import('../reactors/skills-from-env.js'),
    import('../recall/embedders/embedder-choice.js'),
    import('../config/settings-report.js'),
    import('../config/effective-settings.js'),
    import('../sync/sync-settings.js'),
  ]);
  // The sync settings; when they are wrong the worker runs without sync and says why.
  let sync;
  try {
    sync = syncFromEnv(env, paths);
  } catch (err) {
    terminal.stderr.write(`engram: sync is off: ${describeError(err)}\n`);
  }
  const idle = env.ENGRAM_WORKER_IDLE_MS ? Number(env.ENGRAM_WORKER_IDLE_MS) : undefined;
  let after = values.after === undefined ? undefined : Number(values.after);
  if (after !== undefined && !(Number.isInteger(after) && after > 0)) throw new EngramError('USAGE', `--after takes a pid, not ${JSON.stringify(values.after)}`);
  if (after === undefined) {
    // `engram worker` by hand, newer than the one running: it takes over, as a hook would.
    const running = await liveWorker(paths);
    if (running && isOlderBuild(running.build, BUILD_ID) && (await requestHandOver(paths, BUILD_ID))) after = running.pid;
  }
  return runWorker({
    paths,
    clock,
    idleMs: Number.isFinite(idle) ? idle : undefined,
    settingsEnv: env,
    after,
    distiller: distillerFromEnv(env, paths),
    embedder: embedderChoice(env),
    skills: skillsFromEnv(env, paths),
    sync,
    settings: settingsReport('worker', env),
    rereadSettings: () => settingsReport('worker', withConfig(env, paths)),
    // config.json changed under it: a successor of the same build, started with the environment
    // this worker was given, reads the file again and takes over once this one has let go.
    restart: (pid) => {
      const child = spawn(process.execPath, [MAIN, 'worker', '--after', String(pid)], { detached: true, stdio: ['ignore', openSync(paths.workerLog, 'a'), openSync(paths.workerLog, 'a')], env });
      child.unref();
    },
  });
}

/**
 * `engram worker stop`: asks the worker to stop and waits until it has exited. Says so, with
 * exit 1, when it has not within `timeoutMs` (a stopped or wedged worker, or one still
 * finishing a long request): "stopped" is printed only for a worker that is gone.
 */
export async function stopWorker(ctx: EngineCommandContext, timeoutMs: number): Promise<number> {
  const { paths, terminal } = ctx;
  const running = await liveWorker(paths);
  if (!running) {
    terminal.stdout.write('not running\n');
    return 0;
  }
  const deadline = Date.now() + timeoutMs;
  try {
    await askWorker(paths, { op: 'stop' }, () => undefined, { answerTimeoutMs: timeoutMs });
  } catch (err) {
    if (!isEngramError(err, 'WORKER_UNREACHABLE')) throw err;
    // Not listening (any more): it may be exiting already; the wait below tells.
  }
  // Gone, not merely on its way out: the pid file goes a moment before the process does.
  const gone = await waitFor(() => !processRunning(running.pid), Math.max(0, deadline - Date.now()));
  if (!gone) {
    terminal.stderr.write(
      `engram: worker ${running.pid} has not stopped after ${Math.round(timeoutMs / 1000)} s (stopped, wedged, or still finishing a request; see ${paths.workerLog}). \`kill ${running.pid}\` stops it; the log is safe either way\n`,
    );
    return 1;
  }
  terminal.stdout.write(`stopped worker ${running.pid}\n`);
  return 0;
}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback * 1000;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new EngramError('USAGE', `--timeout takes a number of seconds, not ${JSON.stringify(value)}`);
  return n * 1000;
}

export async function waitFor(test: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await test()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
