import { appendFileSync, mkdirSync, readFileSync, renameSync, unlinkSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import type { Server } from 'node:net';
import type { Clock } from '../clock.js';
import { describeError, isEngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import { engineCommands } from './commands/all-commands.js';
import { Engine } from './engine/engine.js';
import { startSocketServer } from './socket/socket-server.js';

export interface WorkerOptions {
  paths: EngramPaths;
  clock: Clock;
  /** Exit after this long with no spool file and no request. Default 10 minutes (env ENGRAM_WORKER_IDLE_MS). */
  idleMs?: number;
  /** Look at the spool this often even if no file-system event arrived. Default 1000 ms. */
  pollMs?: number;
  /** How long to keep trying for a log another process holds briefly. Default 3000 ms. */
  lockWaitMs?: number;
}

/**
 * The worker: the log's single writer. Holds the log, ingests the spool as hooks fill it, keeps
 * projections caught up, runs reactors, answers the CLI on a local socket, and exits when idle.
 * Resolves with the process exit code once it has shut down.
 */
export async function runWorker(options: WorkerOptions): Promise<number> {
  const { paths } = options;
  mkdirSync(paths.logs, { recursive: true });
  const log = (line: string) => {
    try {
      appendFileSync(paths.workerLog, `${new Date().toISOString()} pid=${process.pid} ${line}\n`);
    } catch {
      // logging must never be why the worker dies
    }
  };
  const engine = await openWithRetry(options, log);
  if (!engine) {
    log('another process holds the log; exiting');
    return 0;
  }
  const startedAt = new Date().toISOString();
  writePidFile(paths);
  try {
    unlinkSync(paths.startLock);
  } catch {
    // not started by a hook
  }
  log(`started; log head ${engine.log.head}`);

  let lastActivity = Date.now();
  let stopping = false;
  let resolveStopped!: (code: number) => void;
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));

  // Ticks run one after another; a request for one while one runs makes exactly one more.
  let running: Promise<void> | undefined;
  let again = false;
  let waitTimer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const report = await engine.ingest();
          if (report.ingested + report.rejected > 0) lastActivity = Date.now();
          // Not awaited: each projector keeps up on its own, the slow never holding up the fast.
          engine.keepUp((err) => log(`projection failed, retried on the next round: ${describeError(err)}`));
          // Files behind a hook that is still writing: look again in a moment.
          if (report.waiting > 0 && !waitTimer) {
            waitTimer = setTimeout(() => ((waitTimer = undefined), schedule()), 20);
          }
        } catch (err) {
          // One bad round (a full disk, a bad file) must not kill the worker; the next round retries.
          log(`tick failed: ${describeError(err)}`);
        }
      } while (again && !stopping);
      running = undefined;
    })();
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(paths.spoolNew, () => schedule());
    watcher.on('error', (err) => log(`spool watch failed: ${describeError(err)}`));
  } catch (err) {
    log(`spool watch unavailable, polling only: ${describeError(err)}`);
  }
  const idleMs = options.idleMs ?? 10 * 60_000;
  const poll = setInterval(() => {
    schedule();
    if (Date.now() - lastActivity > idleMs) void stop('idle');
  }, options.pollMs ?? 1000);

  let server: Server | undefined;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`stopping: ${why}`);
    clearInterval(poll);
    if (waitTimer) clearTimeout(waitTimer);
    watcher?.close();
    await running;
    await engine.settle();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await engine.close();
    removeIfOurs(paths.pidFile);
    log('stopped');
    resolveStopped(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  server = await startSocketServer({
    path: paths.socket,
    engine,
    commands: engineCommands(),
    startedAt,
    onActivity: () => (lastActivity = Date.now()),
    onStop: () => void stop('asked to stop'),
    log,
  });
  schedule();
  return stopped;
}

async function openWithRetry(options: WorkerOptions, log: (line: string) => void): Promise<Engine | undefined> {
  const deadline = Date.now() + (options.lockWaitMs ?? 3000);
  for (;;) {
    try {
      return await Engine.open({ paths: options.paths, clock: options.clock });
    } catch (err) {
      if (!isEngramError(err, 'LOG_LOCKED')) throw err;
      if (Date.now() > deadline) return undefined;
      log('log is locked; waiting');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function writePidFile(paths: EngramPaths): void {
  const tmp = `${paths.pidFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${process.pid}\n`);
  renameSync(tmp, paths.pidFile);
}

function removeIfOurs(pidFile: string): void {
  try {
    if (readFileSync(pidFile, 'utf8').trim() === String(process.pid)) unlinkSync(pidFile);
  } catch {
    // already gone
  }
}
