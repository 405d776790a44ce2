import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { BUILD_ID } from '../build-id.js';
import { ensureWorker } from '../launch/ensure-worker.js';
import { resolvePaths } from '../paths.js';
import { liveWorker, processRunning } from '../launch/live-worker.js';
import { runtimeDir } from '../launch/runtime-dir.js';
import { runtimeLockfile, type Lockfile } from './runtime-lockfile.js';
import { runtimeBuildDir, runtimeCli, runtimeStatusPath, type RuntimeStatus } from '../launch/runtime-status.js';

/**
 * The plugin's bootstrap, `plugin/prepare-runtime.cjs`, started in the background by the first
 * plugin hook that finds no worker runtime for its build (never inside a hook's time budget):
 * installs the worker's dependencies with `npm ci` from a lockfile cut from engram's own, bundles
 * the CLI and worker from the clone's sources with the esbuild it just installed, then starts the
 * worker, which ingests what the hooks spooled meanwhile. `status.json` says what it is doing or
 * why it failed (the SessionStart line and `engram doctor` read it). Node built-ins only until
 * the dependencies exist.
 */

/** Niceness of the preparation (0 is the usual priority, 19 the lowest). */
const PREPARE_NICENESS = 15;

/** npm gets this long; a stalled install is killed and recorded as failed, and a later session retries. */
const NPM_TIMEOUT_MS = 15 * 60_000;

const packageSchema = z.looseObject({
  dependencies: z.record(z.string(), z.string()),
  devDependencies: z.looseObject({ esbuild: z.string() }),
});
const lockSchema = z.looseObject({ lockfileVersion: z.number(), packages: z.record(z.string(), z.looseObject({})) });

async function prepareRuntime(env: NodeJS.ProcessEnv): Promise<void> {
  const paths = resolvePaths(env);
  const root = fileURLToPath(new URL('../', import.meta.url));
  const runtime = runtimeDir(paths, env);
  const dir = runtimeBuildDir(runtime, BUILD_ID);
  const cli = runtimeCli(runtime, BUILD_ID);
  // Below the session's own processes, npm and esbuild included (children inherit it): a hook
  // that starts while the install runs must still fit its budget on a busy machine.
  try {
    setPriority(PREPARE_NICENESS);
  } catch {
    // Not allowed here: run at the usual priority.
  }
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'preparing.lock');
  if (!takeLock(lock)) return;
  try {
    if (!existsSync(cli)) {
      const say = (step: string) => writeStatus(dir, { state: 'preparing', step, since: new Date().toISOString(), pid: process.pid });
      say(`installing the worker's dependencies with npm into ${dir}`);
      const pkg = packageSchema.parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
      const rootLock = lockSchema.parse(JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))) as Lockfile;
      // esbuild turns the clone's TypeScript into the worker below; nothing else of the dev tools.
      const dependencies = { ...pkg.dependencies, esbuild: pkg.devDependencies.esbuild };
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'engram-runtime', version: '0.0.0', private: true, type: 'module', dependencies }, null, 2)}\n`);
      writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(runtimeLockfile(rootLock, 'engram-runtime', dependencies), null, 2)}\n`);
      await npmCi(dir, env);
      say('building the worker');
      await bundleCli(root, dir, cli);
    }
    rmSync(runtimeStatusPath(runtime, BUILD_ID), { force: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    writeStatus(dir, { state: 'failed', step: 'preparing the worker', since: new Date().toISOString(), error: message.slice(0, 2000) });
    return;
  } finally {
    rmSync(lock, { force: true });
  }
  await ensureWorker(paths, env, { cliPath: cli });
  await removeOtherBuilds(paths, runtime);
}

function writeStatus(dir: string, status: RuntimeStatus): void {
  const path = join(dir, 'status.json');
  writeFileSync(`${path}.tmp`, JSON.stringify(status));
  renameSync(`${path}.tmp`, path);
}

/** Exclusive, holding our pid: a lock whose process is gone (killed mid-install) is taken over. */
function takeLock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && processRunning(holder)) return false;
      try {
        unlinkSync(path);
      } catch {
        return false;
      }
    }
  }
  return false;
}

/**
 * `npm ci` in the runtime directory, its output in npm.log there. npm is the one on PATH, else
 * the one beside this Node. `npm_config_*` in the environment applies (a mirror, `offline`).
 */
async function npmCi(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const out = openSync(join(dir, 'npm.log'), 'w');
  const args = ['ci', '--no-audit', '--no-fund', '--loglevel=warn'];
  try {
    let code = await run('npm', args, dir, env, out);
    if (code === 'ENOENT') code = await run(join(dirname(process.execPath), 'npm'), args, dir, env, out);
    if (code !== 0) {
      const tail = readFileSync(join(dir, 'npm.log'), 'utf8').trim().split('\n').slice(-5).join(' | ');
      throw new Error(code === 'ENOENT' ? 'npm was not found on PATH or beside node' : `npm ci ${code === 'timeout' ? 'took too long' : `exited ${code}`}: ${tail} (see ${join(dir, 'npm.log')})`);
    }
  } finally {
    closeSync(out);
  }
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, out: number): Promise<number | 'ENOENT' | 'timeout'> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...env, npm_config_update_notifier: 'false' }, stdio: ['ignore', out, out] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('timeout');
    }, NPM_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve((err as NodeJS.ErrnoException).code === 'ENOENT' ? 'ENOENT' : 1);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}

interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/**
 * The CLI and worker as one ES module beside the runtime's node_modules (which Node resolves its
 * imports from), stamped with this build's id so that the hooks and the worker agree on who is
 * current; written under another name and renamed, since its presence means ready.
 */
async function bundleCli(root: string, dir: string, cli: string): Promise<void> {
  const esbuild = createRequire(join(dir, 'package.json'))('esbuild') as Esbuild;
  const partial = `${cli}.partial`;
  await esbuild.build({
    entryPoints: [join(root, 'src', 'cli', 'main.ts')],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
    plugins: [
      {
        name: 'build-id',
        setup(build: { onLoad(options: { filter: RegExp }, callback: () => { contents: string; loader: string }): void }) {
          build.onLoad({ filter: /[\\/]src[\\/]build-id\.ts$/ }, () => ({ contents: `export const BUILD_ID = ${JSON.stringify(BUILD_ID)};\n`, loader: 'ts' }));
        },
      },
    ],
  });
  renameSync(partial, cli);
}

/** Runtimes of other builds go once no worker runs from them (the old worker may still be handing over). */
async function removeOtherBuilds(paths: ReturnType<typeof resolvePaths>, runtime: string): Promise<void> {
  const running = await liveWorker(paths);
  if (running && running.build !== BUILD_ID) return;
  for (const name of readdirSync(runtime)) {
    if (name !== BUILD_ID) rmSync(join(runtime, name), { recursive: true, force: true });
  }
}

void prepareRuntime(process.env);
