import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { hookFile, type FixtureSession } from './fixture-sessions.js';

export interface DriveOptions {
  env: NodeJS.ProcessEnv;
  hooksDir: string;
  /** Sessions driven side by side, as in a day with several terminals open. Default 1. */
  concurrency?: number;
  onHookDone?: () => void;
}

/**
 * Runs every recorded payload through the real hook process it was sent to, one session's
 * hooks one after the other (as Claude Code runs them), with the clock pinned to when it
 * happened. Rejects if any hook exits non-zero or prints anything.
 */
export async function driveSessions(sessions: FixtureSession[], options: DriveOptions): Promise<void> {
  const queue = [...sessions];
  const lanes = Array.from({ length: options.concurrency ?? 1 }, async () => {
    for (let session = queue.shift(); session; session = queue.shift()) {
      for (const line of session.lines) {
        await runOne(join(options.hooksDir, hookFile[line.hook]), JSON.stringify(line.payload), { ...options.env, ENGRAM_NOW: line.at });
        options.onHookDone?.();
      }
    }
  });
  await Promise.all(lanes);
}

function runOne(script: string, stdin: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && output === '' ? resolve() : reject(new Error(`${script} exited ${code}: ${output}`))));
    child.stdin.end(stdin);
  });
}
