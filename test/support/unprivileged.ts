import { chownSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessResult, TempHome } from './temp-home.js';
import { cliPath, runCommand } from './temp-home.js';

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
  return runCommand(process.execPath, [cliPath, ...args], { env: h.env, ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) });
}

/**
 * Gives the home back to the user the tests run as, after {@link runCliUnprivileged}: what the
 * test then reads of it (`engram log dump`) runs in-process, as the home's owner.
 */
export function handHomeBack(h: TempHome): void {
  if (asRoot) chownTree(h.root, process.getuid!());
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
