import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * Whether a branch exists, read from the repository's files (no git process): loose refs,
 * packed-refs, and the HEAD of every worktree (a fresh repository's branch has no ref file
 * until its first commit, yet it is the branch you are on). Worktrees and submodules, where
 * `.git` is a file naming the real git directory, are followed.
 */

export interface GitLocation {
  /** The worktree's own git directory (its HEAD). */
  readonly gitDir: string;
  /** Where refs and packed-refs live: the main repository's git directory for a linked worktree. */
  readonly commonDir: string;
  /** Refs kept in the reftable format: files cannot answer, only git can. */
  readonly reftable: boolean;
}

/** The repository `dir` is in, looking upwards as git does; undefined outside any. */
export async function findGitDir(dir: string): Promise<GitLocation | undefined> {
  let current = resolve(dir);
  for (let depth = 0; depth < 128; depth++) {
    const dotGit = join(current, '.git');
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return location(dotGit);
    if (info?.isFile()) {
      const text = await readFile(dotGit, 'utf8').catch(() => '');
      const target = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
      if (target) return location(resolve(current, target));
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

async function location(gitDir: string): Promise<GitLocation> {
  const common = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const reftable = (await stat(join(commonDir, 'reftable')).catch(() => undefined))?.isDirectory() === true;
  return { gitDir, commonDir, reftable };
}

export type BranchLookup = { readonly found: true; readonly how: string } | { readonly found: false };

/**
 * Looks `name` up as a local branch (`refs/heads/name`), then as a remote-tracking one
 * (`refs/remotes/name`, for `origin/main`). The name must already be a valid ref name: the
 * caller checks it, since it becomes a path under the git directory.
 */
export async function lookUpBranch(git: GitLocation, name: string): Promise<BranchLookup> {
  for (const [prefix, what] of [
    ['refs/heads/', 'a branch'],
    ['refs/remotes/', 'a remote-tracking branch'],
  ] as const) {
    const loose = await stat(join(git.commonDir, ...`${prefix}${name}`.split('/'))).catch(() => undefined);
    if (loose?.isFile()) return { found: true, how: `${what} (${prefix}${name})` };
  }
  const packed = await readFile(join(git.commonDir, 'packed-refs'), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  for (const line of packed.split('\n')) {
    const ref = /^[0-9a-f]{40,64} (\S+)$/.exec(line)?.[1];
    if (ref === `refs/heads/${name}`) return { found: true, how: `a branch (packed-refs)` };
    if (ref === `refs/remotes/${name}`) return { found: true, how: `a remote-tracking branch (packed-refs)` };
  }
  const heads = [join(git.gitDir, 'HEAD'), join(git.commonDir, 'HEAD')];
  const worktrees = await readdir(join(git.commonDir, 'worktrees')).catch(() => [] as string[]);
  for (const worktree of worktrees.sort()) heads.push(join(git.commonDir, 'worktrees', worktree, 'HEAD'));
  for (const head of heads) {
    const text = await readFile(head, 'utf8').catch(() => '');
    if (text.trim() === `ref: refs/heads/${name}`) return { found: true, how: 'the branch checked out in a worktree' };
  }
  return { found: false };
}

/** git check-ref-format's rules for a branch name, so it can be joined to a path safely. */
export function isValidBranchName(name: string): boolean {
  if (!name || name.length > 255 || name === '@' || name === 'HEAD') return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  if (name.includes('..') || name.includes('//') || name.includes('@{')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}
