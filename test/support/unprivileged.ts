import { spawn } from 'node:child_process';
import { chownSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessResult, TempHome } from './temp-home.js';
import { cliPath } from './temp-home.js';

/** The uid tests run engram as when they need permissions to bite: root ignores them. */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/**
 * Runs the CLI as a user whom file permissions apply to: this user, or `nobody` when the tests
 * run as root (then the temporary home is handed to nobody first). A real process, so a
 * `chmod 555` on a spool directory fails its writes exactly as it would for a user.
 */
export function runCliUnprivileged(args: string[], h: TempHome): Promise<ProcessResult> {
  if (asRoot) chownTree(h.root, NOBODY);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: h.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (!lstatSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) {
    const child = join(path, name);
    if (lstatSync(child).isSymbolicLink()) continue;
    chownTree(child, uid);
  }
}
