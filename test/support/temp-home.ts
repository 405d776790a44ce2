import { spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach } from 'vitest';
import { hookTable, type HookEvent } from '../../src/cli/hook-table.js';
import { resolvePaths, type EngramPaths } from '../../src/paths.js';
import { memoryTmpdir } from './memory-tmpdir.js';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const cliPath = join(repoRoot, 'dist', 'src', 'cli', 'main.js');
export const hooksDir = join(repoRoot, 'dist', 'hooks');

export interface TempHome {
  root: string;
  env: NodeJS.ProcessEnv;
  paths: EngramPaths;
  cleanup(): Promise<void>;
}

/**
 * A fresh ENGRAM_HOME and CLAUDE_CONFIG_DIR for one test: nothing a test does may reach the
 * real ~/.engram or ~/.claude. Hooks do not start workers unless a test asks for it.
 */
export function tempHome(extraEnv: NodeJS.ProcessEnv = {}, options: { parent?: string } = {}): TempHome {
  return tempHomeAt(mkdtempSync(join(options.parent ?? tmpdir(), 'engram-test-')), extraEnv);
}

/**
 * {@link tempHome} in a directory the caller chose (made if missing): for a file whose tests
 * each start from one home restored in the same place, since the projections' state holds the
 * paths it wrote (a home copied elsewhere is not the same home). `cleanup` removes `root`.
 */
export function tempHomeAt(root: string, extraEnv: NodeJS.ProcessEnv = {}): TempHome {
  mkdirSync(root, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ENGRAM_HOME: join(root, 'home'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    ENGRAM_WORKER_AUTOSTART: '0',
    ENGRAM_WORKER_IDLE_MS: '60000',
    // Distilling runs only where a test asks for it, and never reaches a real `claude`.
    ENGRAM_DISTILLER: 'off',
    ENGRAM_LLM_CMD: '',
    // Tests that turn the distiller on run their sessions' LLM calls back to back.
    ENGRAM_DISTILL_PAUSE_MS: '0',
    ENGRAM_DISABLE: '',
    ENGRAM_NOW: '',
    // The embedding model costs a worker 0.7 s and 130 MB to load: tests of other things run
    // without the vectors projection; the vectors tests choose a model themselves.
    ENGRAM_EMBEDDER: 'off',
    ...extraEnv,
  };
  const paths = resolvePaths(env);
  return {
    root,
    env,
    paths,
    async cleanup() {
      // No pid file: `worker stop` would say "not running" (live-worker.ts reads that file first).
      if (existsSync(paths.pidFile)) await cliHere(['worker', 'stop'], env).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `file` with `args` to its end, collecting what it prints: the one place tests spawn a
 * process and wait for it. `stdin` is written whole and closed (empty by default).
 */
export function runCommand(file: string, args: readonly string[], options: Omit<SpawnOptions, 'stdio'> & { stdin?: string | Buffer } = {}): Promise<ProcessResult> {
  const { stdin, ...spawnOptions } = options;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { ...spawnOptions, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(stdin ?? '');
  });
}

export function runProcess(args: string[], env: NodeJS.ProcessEnv, stdin?: string | Buffer): Promise<ProcessResult> {
  return runCommand(process.execPath, args, { env, ...(stdin === undefined ? {} : { stdin }) });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return runProcess([cliPath, ...args], env);
}

type RunEngram = typeof import('../../src/cli/run-engram.js').runEngram;
let builtRunEngram: Promise<RunEngram> | undefined;

/**
 * `engram ARGS` run by the built CLI's main in this process (src/cli/run-engram.ts): the same
 * code, output and exit code as {@link runCli} without a node start and the CLI's imports per
 * call. For what a command does; what needs the process (hooks, signals, kill -9, sockets between
 * processes, install, stdin) keeps {@link runCli} (`worker --detach` runs here: the worker it
 * starts is a detached process of its own, as from the bin). The built one, not the
 * source: it has the build id of the worker and hooks it talks to.
 */
export async function cliHere(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string } = {}): Promise<ProcessResult> {
  builtRunEngram ??= import(pathToFileURL(join(repoRoot, 'dist', 'src', 'cli', 'run-engram.js')).href).then((module) => module.runEngram as RunEngram);
  const result = await (await builtRunEngram)(args, { env, ...options });
  return { ...result, signal: null };
}

/** Hook file names by Claude Code event. */
export const hookFiles = Object.fromEntries(hookTable.map((spec) => [spec.event, spec.file])) as Record<HookEvent, string>;

export type HookName = HookEvent;

/**
 * Temporary homes for each test of a file, stopped and removed after each test. `inMemory`: under
 * memoryTmpdir() (a tmpfs), for a file whose tests are not about the disk: the log's, the views'
 * and the spool's fsyncs then cost next to nothing, where on a loaded machine they were much of
 * the wait. A call's own `parent` puts that one home elsewhere.
 */
export function useTempHomes(options: { inMemory?: boolean } = {}): (env?: NodeJS.ProcessEnv, at?: { parent?: string }) => TempHome {
  const homes: TempHome[] = [];
  afterEach(async () => {
    for (const home of homes.splice(0)) await home.cleanup();
  });
  return (env = {}, at = {}) => {
    const h = tempHome(env, { parent: at.parent ?? (options.inMemory ? memoryTmpdir() : undefined) });
    homes.push(h);
    return h;
  };
}

export function runHook(hook: HookName, payload: unknown, env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  const stdin = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  return runProcess([join(hooksDir, hookFiles[hook])], env, stdin);
}

/** The log as `engram log dump` prints it. */
export async function dumpLog(env: NodeJS.ProcessEnv): Promise<Array<Record<string, any>>> {
  const result = await cliHere(['log', 'dump'], env);
  if (result.code !== 0) throw new Error(`log dump failed: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

export async function drain(env: NodeJS.ProcessEnv): Promise<void> {
  const result = await cliHere(['worker', '--drain'], env);
  if (result.code !== 0) throw new Error(`drain failed (${result.code}): ${result.stderr}`);
}

/** Every file under these directories, by path relative to its root's parent. */
export function walkFiles(...roots: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (dir: string, prefix: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path, `${prefix}/${name}`);
      else files[`${prefix}/${name}`] = readFileSync(path, 'utf8');
    }
  };
  for (const root of roots) visit(root, basename(root));
  return files;
}
