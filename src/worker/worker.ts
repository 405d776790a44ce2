import { mkdirSync, rmSync, unlinkSync, watch, type FSWatcher } from 'node:fs';
import { z } from 'zod';
import { describeDamage, isWhole } from '../log/log-check.js';
import { saveVerifiedMark, verifyFrom } from '../log/verified-mark.js';
import { appendRotated, WORKER_LOG_ROTATION } from '../append-rotated.js';
import { writeFileAtomic } from '../atomic-write.js';
import { BUILD_ID } from '../build-id.js';
import type { Clock } from '../clock.js';
import { describeError, EngramError, isEngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import type { EmbedderChoice } from '../recall/embedders/embedder-choice.js';
import { Recaller } from '../recall/recaller.js';
import { answerRecall } from './answer-recall.js';
import { recallFirst } from './recall-first.js';
import { engineCommands } from '../commands/all-commands.js';
import { searchMemories } from '../commands/search-memories.js';
import { openEngine, type ComposedEngine, type OpenEngineOptions } from '../composition/open-engine.js';
import { ingestFromEnv } from '../ingest/ingest-from-env.js';
import type { IngestOptions } from '../ingest/ingest.js';
import { openWithRetry } from './open-with-retry.js';
import { formatPidFile, readPidFile } from '../launch/live-worker.js';
import { foreignSocketAdvice, prepareSocketDir } from '../socket/socket-owner.js';
import { startSocketServer, type SocketServer } from '../socket/socket-server.js';
import type { Viewer } from '../viewer/viewer-server.js';
import { configFileStamp } from '../config/config-file.js';
import type { SettingsReport } from '../config/effective-settings.js';
import type { SyncSettings } from '../sync/sync-settings.js';

export interface WorkerOptions {
  paths: EngramPaths;
  clock: Clock;
  /** The distiller's LLM and transcript reader. Default none, and no distiller (the CLI passes distillerFromEnv's). */
  distiller?: OpenEngineOptions['distiller'];
  /** Exit after this long with no spool file and no request. Default 10 minutes (env ENGRAM_WORKER_IDLE_MS). */
  idleMs?: number;
  /** Look at the spool this often even if no file-system event arrived. Default 1000 ms. */
  pollMs?: number;
  /** How long to keep trying for a log another process holds briefly. Default 3000 ms. */
  lockWaitMs?: number;
  /**
   * The older worker this one takes over from (`engram worker --after PID`, started by a hand-over):
   * while that process lives, keep waiting for the log, up to `handOverWaitMs`. Default none.
   */
  after?: number;
  /**
   * How long to wait for the worker named by `after` to finish and let go of the log. Default
   * 120,000 ms: it finishes the round and the requests it is serving before it exits.
   */
  handOverWaitMs?: number;
  /** How long, when stopping, a request still being answered may take before its connection is cut. Default 2000 ms. */
  stopGraceMs?: number;
  /** The vectors projection's embedder. Default `off` (the CLI passes ENGRAM_EMBEDDER's, itself `use-lite` by default). */
  embedder?: EmbedderChoice;
  /** Let go of the model after this many ms unused. Default `settingsEnv`'s ENGRAM_MODEL_IDLE_MS, else 10 minutes. */
  modelIdleMs?: number;
  /**
   * The settings as this worker runs with them: the environment with config.json under it (the
   * CLI passes withConfig's), read for the settings no other option carries. Default process.env.
   */
  settingsEnv?: NodeJS.ProcessEnv;
  /** How often what was appended since is read back to find a damaged block. Default 60,000 ms. */
  verifyEveryMs?: number;
  /** The skills reactors' settings. Default: their defaults, no audit (the CLI passes skillsFromEnv's). */
  skills?: OpenEngineOptions['skills'];
  /** The settings it runs with and their sources, for `engram doctor` (see settingsReport). */
  settings?: SettingsReport;
  /**
   * The settings as config.json says them now, read again when the file changes; when they
   * differ from `settings`, the worker calls `restart` (which starts its successor) and stops.
   * Without both, a changed file is only logged.
   */
  rereadSettings?: () => SettingsReport;
  restart?: (pid: number) => void;
  /** Sync with other machines through NATS JetStream (see syncFromEnv). Default none. */
  sync?: SyncSettings;
}

/**
 * The worker: the log's single writer. Holds the log, ingests the spool as hooks fill it, keeps
 * projections caught up, runs reactors, answers the CLI on a local socket, and exits when idle.
 * Resolves with the process exit code once it has shut down.
 */
export async function runWorker(options: WorkerOptions): Promise<number> {
  const { paths } = options;
  // 0700: the home holds prompts (see socket-owner.ts); made so before anything is written in it.
  const unsafe = prepareSocketDir(paths);
  mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  const log = (line: string) => {
    try {
      appendRotated(paths.workerLog, `${new Date().toISOString()} pid=${process.pid} ${line}\n`, WORKER_LOG_ROTATION);
    } catch {
      // logging must never be why the worker dies
    }
  };
  if (unsafe) {
    log(`not starting: ${foreignSocketAdvice(unsafe, paths)}`);
    process.stderr.write(`engram: ${foreignSocketAdvice(unsafe, paths)}\n`);
    return 1;
  }
  let engine: ComposedEngine | undefined;
  // Loaded only with sync on: no other process pays for the NATS client.
  const sync = options.sync ? (await import('../sync/worker-sync.js')).workerSync(options.sync, { log }) : undefined;
  // Said once per load of the model: at start, and again after it was let go for being unused.
  let saidLoading = false;
  try {
    const env = options.settingsEnv ?? process.env;
    const modelIdleMs = options.modelIdleMs ?? modelIdleFromEnv(env, log);
    const ingest = ingestSettings(env, log);
    const onModelUnloaded = () => {
      log('model let go after being unused; the next recall loads it again');
      saidLoading = false;
    };
    const onModelLoaded = (kernel: string) => log(`model loaded; it runs on ${kernel}`);
    const { clock, distiller, embedder, skills, settings } = options;
    engine = await openWithRetry(() => openEngine({ paths, clock, distiller, embedder, skills, settings, reactors: sync?.reactors, elsewhere: sync?.elsewhere, modelIdleMs, onModelUnloaded, onModelLoaded, warmModel: true, ingest }), options, log);
  } catch (err) {
    // A log that will not open halts everything: say why where people look, and let the next
    // hook's worker try again (removing the start lock), rather than die without a word.
    const why = isEngramError(err, 'LOG_CORRUPT')
      ? `the log does not open (${describeError(err)}); run \`engram log repair\` to keep every readable event in a new log (the old one is kept)`
      : `the worker could not start: ${describeError(err)}`;
    log(why);
    if (isEngramError(err, 'LOG_CORRUPT')) markLogBroken(paths, why);
    rmSync(paths.startLock, { force: true });
    return 1;
  }
  if (!engine) {
    log('another process holds the log; exiting');
    return 0;
  }
  const startedAt = new Date().toISOString();

  let lastActivity = Date.now();
  let stopping = false;
  let resolveStopped!: (code: number) => void;
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));

  const answering = recallFirst({ maxHoldMs: 250 });
  // Ticks run one after another; a request for one while one runs makes exactly one more.
  let running: Promise<void> | undefined;
  let again = false;
  let waitTimer: NodeJS.Timeout | undefined;
  let lastProblems = '';
  // Set once the log is found damaged: from then on nothing is ingested (spool files wait) and
  // no projection advances, until `engram log repair`.
  let broken = false;
  let verifiedTo = 0;
  // Nothing is ingested or projected before the first check has read the log whole.
  let checked = false;
  let lastVerify = Date.now();
  const breakOn = (why: string): void => {
    if (broken) return;
    broken = true;
    const text = `${why}; ingest stopped (hook events wait in the spool); run \`engram log repair\` to keep every readable event in a new log (the old one is kept)`;
    log(text);
    markLogBroken(paths, text);
  };
  const verifyLog = async (from: number): Promise<void> => {
    lastVerify = Date.now();
    const head = engine.log.head;
    try {
      const check = await engine.log.check({ from });
      if (!isWhole(check)) breakOn(describeDamage(check));
      else {
        verifiedTo = Math.max(verifiedTo, head);
        // A mark not saved (a full disk) only makes the next start read back more.
        await saveVerifiedMark(engine.log, paths.log, verifiedTo).catch(() => undefined);
      }
    } catch (err) {
      breakOn(`the log cannot be read whole: ${describeError(err)}`);
    }
  };
  const schedule = (): void => {
    if (stopping || broken || !checked || answering.hold(schedule)) return;
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
          if (report.lost > 0) log(`${report.lost} hook events could not be written to the spool by their hooks and are lost; recorded as HookWritesFailed`);
          // Said once when it changes, not on every round: the problem is the same until fixed.
          const problems = report.problems.join('; ');
          if (problems !== lastProblems && problems !== '') log(`spool files stuck: ${problems}`);
          lastProblems = problems;
          // Not awaited: each projector keeps up on its own, the slow never holding up the fast.
          engine.keepUp((err) => log(`projection failed, retried on the next round: ${describeError(err)}`));
          // Files behind a hook that is still writing: look again in a moment.
          if (report.waiting > 0 && !waitTimer) {
            waitTimer = setTimeout(() => ((waitTimer = undefined), schedule()), 20);
          }
        } catch (err) {
          // One bad round (a full disk, a bad file) must not kill the worker; the next round retries.
          // LevelDB's own "Corruption" is not one bad round: the log is damaged.
          if (/Corruption/.test(describeError(err))) breakOn(`the log is damaged: ${describeError(err)}`);
          else log(`tick failed: ${describeError(err)}`);
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
  let configStamp = configFileStamp(paths);
  const configChanged = (): void => {
    const stamp = configFileStamp(paths);
    if (stamp === configStamp) return;
    configStamp = stamp;
    if (!options.settings || !options.rereadSettings) return log('config.json changed; restart the worker to apply it');
    let now: SettingsReport;
    try {
      now = options.rereadSettings();
    } catch (err) {
      return log(`config.json changed but cannot be used (${describeError(err)}); the worker keeps the settings it started with`);
    }
    const changed = now.settings.filter((s, i) => s.value !== options.settings!.settings[i]?.value).map((s) => `${s.key}: ${options.settings!.settings.find((o) => o.key === s.key)?.value ?? '?'} → ${s.value}`);
    if (changed.length === 0) return;
    log(`config.json changed (${changed.join(', ')}); restarting to apply it`);
    if (options.restart) {
      try {
        options.restart(process.pid);
      } catch (err) {
        log(`could not start the next worker (${describeError(err)}); the next hook starts one`);
      }
    }
    void stop('config.json changed');
  };
  const verifyEveryMs = options.verifyEveryMs ?? 60_000;
  let verifying: Promise<void> | undefined;
  const poll = setInterval(() => {
    configChanged();
    // A reactor at work (a distillation in flight) is activity, though no hook has written.
    if (engine.reactors.busy) lastActivity = Date.now();
    // What was appended since the last look is read back once, in the background.
    if (!broken && !verifying && Date.now() - lastVerify >= verifyEveryMs && engine.log.head > verifiedTo) {
      verifying = verifyLog(verifiedTo + 1).finally(() => (verifying = undefined));
    }
    schedule();
    if (Date.now() - lastActivity > idleMs) void stop('idle');
  }, options.pollMs ?? 1000);

  let server: SocketServer | undefined;
  let recaller: Recaller | undefined;
  // Started by the first `engram ui`, kept until the worker stops.
  let viewer: Promise<Viewer> | undefined;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`stopping: ${why}`);
    clearInterval(poll);
    if (waitTimer) clearTimeout(waitTimer);
    watcher?.close();
    // Requests being answered finish (or are cut off after the grace period) while the round
    // that is running completes; neither may be left using the log once it closes.
    await Promise.all([server?.close(options.stopGraceMs ?? 2000), running, verifying, viewer?.then((v) => v.close(), () => undefined)]);
    await sync?.stopImporting();
    // A reactor's slow run (an LLM call) is cut short, and done again by the next worker.
    engine.reactors.abort();
    await engine.settle();
    await sync?.close();
    recaller?.close();
    await engine.close();
    removeIfOurs(paths.pidFile);
    log('stopped');
    resolveStopped(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  // Kept warm for the prompt hook: index files open, the model loaded on the first recall.
  // While the model loads, a prompt is answered at once by BM25 and the graph (the hook waits
  // only 150 ms); the first such prompt starts the load.
  recaller = new Recaller({
    paths,
    vectors: engine.services.vectors,
    whileLoading: {
      skipWhileLoading: true,
      onSkipped: () => {
        if (!saidLoading) log('recall answers without vectors while the model loads');
        saidLoading = true;
      },
    },
  });
  server = await startSocketServer({
    path: paths.socket,
    engine,
    recall: (request) => answering.answer(() => answerRecall(recaller!, request, { paths, now: options.clock.now(), log })),
    search: async (request) => {
      const found = await searchMemories(engine, recaller!, request);
      for (const problem of found.problems) log(`search left a signal out: ${problem}`);
      return found;
    },
    commands: engineCommands(),
    ui: async (request) => {
      if (stopping) throw new Error('the worker is stopping');
      // Loaded on the first `engram ui`: a worker nobody views does not carry the viewer.
      viewer ??= import('../viewer/viewer-server.js')
        .then(({ startViewer }) => startViewer({ engine, port: request.port, onActivity: () => (lastActivity = Date.now()), log }))
        .catch((err: unknown) => {
          throw new Error(`the viewer did not start: ${describeError(err)}`, { cause: err });
        });
      viewer.catch(() => (viewer = undefined));
      const { url } = await viewer;
      // A viewer keeps its port while the worker lives: asking for another one is said, not ignored.
      const running = Number(new URL(url).port);
      if (request.port !== undefined && request.port !== running) {
        throw new EngramError('VIEWER_RUNNING', `the viewer already runs on port ${running} (${url}), not ${request.port}: it keeps its port until the worker stops (\`engram worker stop\`, then \`engram ui --port ${request.port}\`)`);
      }
      return url;
    },
    startedAt,
    build: BUILD_ID,
    onActivity: () => (lastActivity = Date.now()),
    onStop: (why) => void stop(why),
    log,
  });
  if (stopping) {
    // A signal arrived while the socket was being set up: stop() found no server to close.
    await server.close(0);
    return stopped;
  }
  // Listening before the pid file names this worker: whoever reads the pid file (a hook, the
  // CLI, a socket probe where there is no /proc) finds a worker that answers.
  writeFileAtomic(paths.pidFile, formatPidFile({ pid: process.pid, build: BUILD_ID }));
  try {
    unlinkSync(paths.startLock);
  } catch {
    // not started by a hook
  }
  log(`started; build ${BUILD_ID}; log head ${engine.log.head}`);
  // Read the log back before taking anything in: a damaged log is never written over (an append
  // or compaction over a damaged table spreads the damage), and doctor says so. Only what came
  // since the last worker read it back, unless a table it saw was changed since (verified-mark.ts):
  // a start costs what was appended, not the whole history.
  const from = await verifyFrom(engine.log, paths.log);
  await verifyLog(from);
  log(`read the log back from seq ${from} to ${engine.log.head}${from > 1 ? ' (before it: read back by an earlier worker)' : ''}`);
  if (sync && !broken) {
    await sync.start(engine, () => {
      lastActivity = Date.now();
      schedule();
    }).catch((err: unknown) => log(`sync could not start: ${describeError(err)}`));
  }
  checked = true;
  if (!broken) rmSync(paths.logBroken, { force: true });
  schedule();
  return stopped;
}

/** The marker doctor shows and the prompt hook stats (paths.logBroken): why, and what to run. */
function markLogBroken(paths: EngramPaths, why: string): void {
  try {
    writeFileAtomic(paths.logBroken, `${why}\n`);
  } catch {
    // worker.log already says it
  }
}

function removeIfOurs(pidFile: string): void {
  try {
    if (readPidFile(pidFile)?.pid === process.pid) unlinkSync(pidFile);
  } catch {
    // already gone
  }
}

/**
 * The spool's timings (ingestFromEnv); a value that does not parse is said and the defaults kept:
 * a typo in a setting must not keep the worker, and with it all of memory, from starting.
 */
function ingestSettings(env: NodeJS.ProcessEnv, log: (line: string) => void): IngestOptions {
  try {
    return ingestFromEnv(env);
  } catch (err) {
    log(`${describeError(err)}; the spool's default timings are kept`);
    return {};
  }
}

/** ENGRAM_MODEL_IDLE_MS (src/config/setting-table.ts); a value that is not a positive whole number is said and ignored. */
function modelIdleFromEnv(env: NodeJS.ProcessEnv, log: (line: string) => void): number {
  const raw = env.ENGRAM_MODEL_IDLE_MS;
  const fallback = 10 * 60_000;
  if (raw === undefined || raw === '') return fallback;
  const parsed = z.coerce.number().int().min(1).safeParse(raw);
  if (parsed.success) return parsed.data;
  log(`ENGRAM_MODEL_IDLE_MS is ${JSON.stringify(raw.slice(0, 40))}, not a positive whole number of ms; the model is let go after ${fallback} ms unused`);
  return fallback;
}
