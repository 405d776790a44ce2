import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolvePaths } from '../paths.js';
import { redactCapped } from '../redaction/redact-capped.js';

/**
 * The default command: Claude Code in print mode on its smallest model, answering in one JSON
 * object, with no tools, no MCP servers and no session file of its own. argv, never a shell.
 */
export const DEFAULT_LLM_COMMAND: readonly string[] = [
  'claude',
  '-p',
  '--model',
  'haiku',
  '--output-format',
  'json',
  '--tools',
  '',
  '--strict-mcp-config',
  '--no-session-persistence',
];

export interface RunLlmOptions {
  /**
   * The child's environment, to which the recursion guard `ENGRAM_DISTILLING=1` is added (every
   * engram hook of the inner session then exits at once). `ENGRAM_LLM_CMD` in it replaces the
   * default command: run through `sh -c`, the prompt on its stdin. Default: `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** Where each run's scratch directory (its cwd, removed after) is made. Default: `<ENGRAM_HOME>/scratch`. */
  scratchRoot?: string;
  /** A run still going after this many milliseconds is stopped, reason `timeout`. Default: 120_000. */
  timeoutMs?: number;
  /** Milliseconds between SIGTERM and SIGKILL when a run is stopped. Default: 2_000. */
  killGraceMs?: number;
  /** Bytes of stdout a run may print; one that prints more is stopped, reason `stdout-too-large`. Default: 1_000_000. */
  maxStdoutBytes?: number;
  /** Stops the run as a timeout does, reason `aborted`; already aborted, nothing is started. */
  signal?: AbortSignal;
}

/**
 * How a run ended. `ok`: exited with code 0, `stdout` holds its answer. `exit-nonzero`: exited
 * with another code, or was killed by a signal it was not sent. `spawn-failed`: could not start
 * (command not found, scratch directory not made, …; `stderr` says).
 */
export const LLM_RUN_REASONS = ['ok', 'exit-nonzero', 'timeout', 'aborted', 'stdout-too-large', 'spawn-failed'] as const;
export type LlmRunReason = (typeof LLM_RUN_REASONS)[number];

export interface LlmRunResult {
  ok: boolean;
  reason: LlmRunReason;
  /** What it printed, whole when `ok`, up to the cap otherwise. Not redacted: parse it, then record. */
  stdout: string;
  /** The last of what it printed on stderr, redacted and capped, for a failure's record. */
  stderr: string;
  exitCode: number | null;
  /** `claude` or `ENGRAM_LLM_CMD`: which command ran. */
  command: 'claude' | 'ENGRAM_LLM_CMD';
}

/** The command a run starts under `env`: `ENGRAM_LLM_CMD` through `/bin/sh -c` when set, else claude. */
export function llmCommand(env: NodeJS.ProcessEnv): { label: LlmRunResult['command']; argv: readonly string[] } {
  const custom = env.ENGRAM_LLM_CMD?.trim();
  return custom ? { label: 'ENGRAM_LLM_CMD', argv: ['/bin/sh', '-c', custom] } : { label: 'claude', argv: DEFAULT_LLM_COMMAND };
}

export const RUN_LLM_DEFAULTS = { timeoutMs: 120_000, killGraceMs: 2_000, maxStdoutBytes: 1_000_000 } as const;

/** Kept of stderr, for a failure's record. */
const STDERR_CAP = 4_000;

/**
 * Runs the LLM command once on `prompt`. The command runs in a process group of its own, so a
 * timeout or an abort ends it and everything it started (SIGTERM, then SIGKILL after the grace);
 * whatever it left running when it exited is ended too. Never throws and never rejects: every
 * failure of the child is a result with a reason.
 */
export function runLlm(prompt: string, options: RunLlmOptions = {}): Promise<LlmRunResult> {
  const env = options.env ?? process.env;
  const { label: command, argv } = llmCommand(env);
  const [file, ...args] = argv;
  const timeoutMs = options.timeoutMs ?? RUN_LLM_DEFAULTS.timeoutMs;
  const killGraceMs = options.killGraceMs ?? RUN_LLM_DEFAULTS.killGraceMs;
  const maxStdoutBytes = options.maxStdoutBytes ?? RUN_LLM_DEFAULTS.maxStdoutBytes;
  const signal = options.signal;
  const failed = (reason: LlmRunReason, stderr: string): LlmRunResult => ({ ok: false, reason, stdout: '', stderr, exitCode: null, command });

  if (signal?.aborted) return Promise.resolve(failed('aborted', ''));
  let scratch: string;
  try {
    const root = options.scratchRoot ?? join(resolvePaths(env).home, 'scratch');
    mkdirSync(root, { recursive: true });
    scratch = mkdtempSync(join(root, 'llm-'));
  } catch (err) {
    return Promise.resolve(failed('spawn-failed', `scratch directory: ${(err as Error).message}`));
  }

  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let stopped: LlmRunReason | undefined;
    let spawnError: Error | undefined;
    const timers: NodeJS.Timeout[] = [];

    const child = spawn(file!, args, {
      cwd: scratch,
      env: { ...env, ENGRAM_DISTILLING: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      // A group of its own: one kill reaches every process the command started.
      detached: true,
    });

    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const stop = (reason: LlmRunReason) => {
      if (stopped) return;
      stopped = reason;
      killGroup('SIGTERM');
      timers.push(setTimeout(() => killGroup('SIGKILL'), killGraceMs));
    };
    const onAbort = () => stop('aborted');

    timers.push(setTimeout(() => stop('timeout'), timeoutMs));
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      const room = maxStdoutBytes - stdoutBytes;
      if (chunk.length > room) {
        stdout.push(chunk.subarray(0, room));
        stdoutBytes = maxStdoutBytes;
        stop('stdout-too-large');
        return;
      }
      stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2 * STDERR_CAP);
    });
    // A command that does not read its stdin closes it early: that is no failure of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(prompt);

    child.on('error', (err) => {
      spawnError = err;
    });
    // The leader is done: whatever it left behind in its group would hold the pipes open; end it.
    // Something that left the group (setsid) may hold them still: after a grace, stop reading.
    child.on('exit', () => {
      killGroup('SIGKILL');
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
        }, killGraceMs),
      );
    });
    child.on('close', (code) => {
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      rmSync(scratch, { recursive: true, force: true });
      const reason: LlmRunReason = spawnError ? 'spawn-failed' : (stopped ?? (code === 0 ? 'ok' : 'exit-nonzero'));
      const said = spawnError ? `${spawnError.message}\n${stderr}` : stderr;
      resolve({
        ok: reason === 'ok',
        reason,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: redactCapped(said.slice(-STDERR_CAP), STDERR_CAP),
        exitCode: code,
        command,
      });
    });
  });
}
