import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What `git clone` of this repository gives, made from the working tree so that it holds the
 * change under test before it is committed: every file git tracks or would track (untracked
 * files that .gitignore does not exclude), and nothing else: no node_modules, no dist.
 */
export function cleanClone(repo: string, dest: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'], { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  for (const file of listed.split('\0')) {
    // A tracked file deleted in the working tree is not part of what is being tested.
    if (!file || !existsSync(join(repo, file))) continue;
    // A node_modules that is a symlink (a worktree sharing another's) is a file to git, which
    // `node_modules/` in .gitignore does not exclude; a clone has none.
    if (file === 'node_modules') continue;
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(join(repo, file), join(dest, file));
  }
}
