import { readFileSync } from 'node:fs';
import type { EngramPaths } from '../paths.js';
import { foreignSocket } from '../socket/socket-owner.js';

/** What the worker's pid file says: who holds the log, and of which build (see build-id.ts). */
export interface WorkerRecord {
  pid: number;
  /** Undefined for a worker from before build ids; such a worker is older than any build. */
  build: string | undefined;
}

export interface LiveWorkerOptions {
  /**
   * Where the kernel lists processes. Default `/proc`. Where it is missing (macOS, the BSDs) a
   * pid alone proves nothing, since pids are reused; the worker's socket is asked instead.
   */
  procRoot?: string;
  /** How long a socket probe may take. Default 1000 ms. */
  probeTimeoutMs?: number;
}

/**
 * The one liveness check, for hooks and the CLI: the worker named by the pid file if it is
 * alive, else undefined. Cheap on the hook's path where /proc exists (a file read, a signal 0 and
 * a /proc read; no socket and no `node:net`). Elsewhere it connects to the worker's socket, which
 * only a live worker accepts on.
 */
export async function liveWorker(paths: EngramPaths, options: LiveWorkerOptions = {}): Promise<WorkerRecord | undefined> {
  const record = readPidFile(paths.pidFile);
  if (!record) return undefined;
  const argv = processArgv(record.pid, options.procRoot);
  if (argv === null) return undefined;
  // A recycled pid would otherwise pass for the worker forever: the process must run `… worker`.
  if (argv) return argv.includes('worker') ? record : undefined;
  // No /proc here, or this process is hidden from us: ask the socket.
  return !foreignSocket(paths) && (await socketAccepts(paths.socket, options.probeTimeoutMs ?? 1000)) ? record : undefined;
}

/**
 * Whether process `pid` is still running: for waiting until a worker has exited (after a stop,
 * or before taking over its log). A zombie, exited but not yet reaped, has exited.
 */
export function processRunning(pid: number, options: Pick<LiveWorkerOptions, 'procRoot'> = {}): boolean {
  return processArgv(pid, options.procRoot) !== null;
}

/** null: not running; undefined: running, but its command line cannot be read here; else its argv. */
function processArgv(pid: number, procRoot = '/proc'): string[] | null | undefined {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive, but another user's.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  let cmdline: string;
  try {
    cmdline = readFileSync(`${procRoot}/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  return cmdline === '' ? null : cmdline.split('\0');
}

/** The pid file's record, or undefined when there is none or it is not one. */
export function readPidFile(pidFile: string): WorkerRecord | undefined {
  let text: string;
  try {
    text = readFileSync(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const [pidLine, buildLine] = text.split('\n');
  const pid = Number(pidLine?.trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const build = buildLine?.trim();
  return { pid, build: build ? build : undefined };
}

/** The pid file's content: the pid on the first line, the build on the second. */
export function formatPidFile(record: WorkerRecord): string {
  return `${record.pid}\n${record.build ?? ''}\n`;
}

/** Whether something accepts connections on the unix socket at `path`. */
async function socketAccepts(path: string, timeoutMs: number): Promise<boolean> {
  // Loaded only here: on Linux a hook never pays for node:net.
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (alive: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
