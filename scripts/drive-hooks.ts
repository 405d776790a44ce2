import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { hookFile, type FixtureSession } from './fixture-sessions.js';

export interface DriveOptions {
  env: NodeJS.ProcessEnv;
  /** SessionStart's environment, when it differs: that hook may start the worker, which inherits it. */
  sessionStartEnv?: NodeJS.ProcessEnv;
  hooksDir: string;
  /** Sessions driven side by side, as in a day with several terminals open. Default 1. */
  concurrency?: number;
  onHookDone?: () => void;
}

/**
 * Runs every recorded payload through the real hook process it was sent to, one session's
 * hooks one after the other (as Claude Code runs them), with the clock pinned to when it
 * happened. Rejects if any hook exits non-zero, writes to stderr, or prints to stdout when it is
 * not one of the hooks whose stdout Claude Code adds to the context (SessionStart and
 * UserPromptSubmit may print a summary or a lesson line).
 */
export async function driveSessions(sessions: FixtureSession[], options: DriveOptions): Promise<void> {
  const queue = [...sessions];
  const lanes = Array.from({ length: options.concurrency ?? 1 }, async () => {
    for (let session = queue.shift(); session; session = queue.shift()) {
      for (const line of session.lines) {
        const mayPrint = line.hook === 'SessionStart' || line.hook === 'UserPromptSubmit';
        await runOne(join(options.hooksDir, hookFile[line.hook]), JSON.stringify(line.payload), { ...(line.hook === 'SessionStart' ? (options.sessionStartEnv ?? options.env) : options.env), ENGRAM_NOW: line.at }, mayPrint);
        options.onHookDone?.();
      }
    }
  });
  await Promise.all(lanes);
}

function runOne(script: string, stdin: string, env: NodeJS.ProcessEnv, mayPrint: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const unexpected = stderr + (mayPrint ? '' : stdout);
      if (code === 0 && unexpected === '') resolve();
      else reject(new Error(`${script} exited ${code}: ${unexpected}`));
    });
    child.stdin.end(stdin);
  });
}
