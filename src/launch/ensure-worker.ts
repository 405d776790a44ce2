import { closeSync, existsSync, openSync, statSync, unlinkSync } from 'node:fs';
import { BUILD_ID } from '../build-id.js';
import { isOlderBuild } from '../compare-builds.js';
import type { EngramPaths } from '../paths.js';
import { cliBesideHooks, prepareRuntimeBesideHooks } from './plugin-layout.js';
import { runtimeDir } from './runtime-dir.js';
import { readRuntimeStatus, runtimeCli } from './runtime-status.js';
import { requestHandOver } from './hand-over.js';
import { liveWorker, processRunning, type WorkerRecord } from './live-worker.js';

/** A start lock older than this belongs to a starter that died; the next hook may take it. */
const START_LOCK_STALE_MS = 15_000;

export interface EnsureWorkerOptions {
  /** Default BUILD_ID, this build's. */
  build?: string;
  /**
   * The CLI that runs the worker. Default dist/src/cli/main.js, found from the hook bundle in
   * dist/hooks; for the plugin's hooks, which have none beside them, the runtime prepared for
   * their build (prepare-runtime.ts), whose preparation starts in the background when missing.
   */
  cliPath?: string;
}

/**
 * Makes sure a worker of this build or newer will ingest what the hook wrote. Many hooks fire at
 * once (parallel hooks, many sessions); an exclusive create of the start lock lets exactly one
 * of them act, and the log's own LOCK stops a second worker should two ever start.
 *
 * The usual run reads the pid file, finds a live worker whose build is not older, and returns:
 * no socket, no `node:net`. When the worker is older (engram was updated while it ran), the hook
 * that takes the start lock asks it to hand over and starts one of its own build, which waits on
 * the log's LOCK until the old one has finished and let go.
 */
export async function ensureWorker(paths: EngramPaths, env: NodeJS.ProcessEnv, options: EnsureWorkerOptions = {}): Promise<void> {
  const build = options.build ?? BUILD_ID;
  if (env.ENGRAM_WORKER_AUTOSTART === '0') return;
  if (current(await liveWorker(paths), build)) return;
  if (!takeStartLock(paths.startLock)) return;
  // A worker removes the lock only after writing its pid file: one may have come up between
  // the first look and taking the lock, and a second would only wait on the log and leave.
  const running = await liveWorker(paths);
  if (current(running, build)) {
    releaseStartLock(paths.startLock);
    return;
  }
  // An older worker that does not agree within a second is wedged (or was not older after all):
  // the lock is kept, so it goes stale in START_LOCK_STALE_MS and one hook in that time pays
  // the wait, not every hook.
  if (running && !(await requestHandOver(paths, build, 1000))) return;
  // Loaded only here: most hook runs find the worker up and never pay for child_process.
  const { spawn } = await import('node:child_process');
  let cli = options.cliPath ?? cliBesideHooks();
  if (options.cliPath === undefined && !existsSync(cli)) {
    // The plugin's hooks: the worker runs from the runtime engram prepares for this build.
    cli = runtimeCli(runtimeDir(paths, env), build);
    if (!existsSync(cli)) {
      startPreparing(paths, env, build, spawn);
      // The bootstrap has a lock of its own and starts the worker when it is done.
      releaseStartLock(paths.startLock);
      return;
    }
  }
  const args = running ? [cli, 'worker', '--after', String(running.pid)] : [cli, 'worker'];
  spawn(process.execPath, args, { detached: true, stdio: 'ignore', env }).unref();
}

/** A failed preparation is tried again by a later hook, not by every one. */
const PREPARE_RETRY_MS = 10 * 60_000;

function startPreparing(paths: EngramPaths, env: NodeJS.ProcessEnv, build: string, spawn: typeof import('node:child_process').spawn): void {
  const status = readRuntimeStatus(runtimeDir(paths, env), build);
  if (status?.state === 'failed' && Date.now() - Date.parse(status.since) < PREPARE_RETRY_MS) return;
  if (status?.state === 'preparing' && status.pid !== undefined && processRunning(status.pid)) return;
  const script = prepareRuntimeBesideHooks();
  if (!existsSync(script)) return;
  spawn(process.execPath, [script], { detached: true, stdio: 'ignore', env }).unref();
}

function releaseStartLock(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch {
    // gone already
  }
}

function current(worker: WorkerRecord | undefined, build: string): boolean {
  return worker !== undefined && !isOlderBuild(worker.build, build);
}

function takeStartLock(lockPath: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lockPath, 'wx'));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      try {
        if (Date.now() - statSync(lockPath).mtimeMs < START_LOCK_STALE_MS) return false;
        unlinkSync(lockPath);
      } catch {
        return false;
      }
    }
  }
  return false;
}
