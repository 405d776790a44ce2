import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Closes `dir` (0700) and the files directly in it (0600) to everyone but their owner: the log
 * and the home hold prompts as typed. For homes made before this rule; LevelDB makes its files
 * with the process's umask, and a closed directory keeps the later ones private too. Only what
 * this user owns is touched (a chmod of anything else fails anyway); never throws.
 */
export function makePrivate(dir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || stat.uid !== uid) return;
    if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const file = lstatSync(path);
      if (file.isFile() && file.uid === uid && (file.mode & 0o077) !== 0) chmodSync(path, file.mode & 0o700);
    }
  } catch {
    // Not ours to close, or gone meanwhile: the home's own mode still holds.
  }
}
