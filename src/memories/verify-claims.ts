import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { EngramError } from '../errors.js';
import { claimKey, distinctClaims, type BranchClaim, type Claim, type PackageClaim, type PathClaim, type SymbolClaim, type VerificationStatus } from './claims.js';
import { findGitDir, isValidBranchName, lookUpBranch, type GitLocation } from './git-branches.js';
import { hasPackage, isManifestName, readProjectPackages, type Ecosystem, type ProjectPackages } from './project-packages.js';
import { scanForIdentifiers, SKIPPED_DIRS, SOURCE_EXTENSIONS, walkProjectTree, type ProjectTree } from './project-tree.js';
import { DEFAULT_VERIFY_BUDGET, type VerificationReport, type VerifyBudget, type VerifyOptions } from './verify-options.js';
import { verifyUrls } from './verify-urls.js';

export { DEFAULT_VERIFY_BUDGET, type ClaimVerification, type VerificationReport, type VerifyBudget, type VerifyOptions } from './verify-options.js';
export type { FetchLike } from './verify-options.js';

/**
 * Checks a memory's claims against a project's working tree (the session's cwd), on the worker's
 * side: files exist, identifiers occur in the source, branches exist, packages are declared or
 * locked, and URLs answer (only when network checks are allowed). Every result is ok, missing or
 * unverifiable with a reason; "missing" is said only when the look was complete, so a budget
 * that ran out or a tree too large to scan never ages a memory. The run honours an AbortSignal
 * and a time and size budget, and never throws for a claim.
 *
 * What each kind costs and how it is bounded:
 * - paths: one stat (absolute and `~/` paths are stat'ed where they point, never walked; a path
 *   under a top-level directory this machine lacks is about another machine). A relative path not
 *   at the root is looked for in one breadth-first listing of the tree, shared by the whole run
 *   (node_modules, .git, dist, build and other dependency and cache directories skipped,
 *   symbolic links never followed, capped in entries).
 * - identifiers: `git grep -q` per distinct name when the root is in a git repository and git
 *   runs (tracked and untracked files git does not ignore, stops at the first hit, with a
 *   timeout), else a scan of source files from the same listing, capped per file and in all,
 *   stopping once every name is found.
 * - branches: files only (.git/HEAD, refs/heads, packed-refs, worktrees' HEADs, `.git` files of
 *   linked worktrees); git only for a reftable repository.
 * - packages: the manifests and lockfiles of the root and of workspace packages up to two levels
 *   down, read once per run, each capped in size.
 * - URLs: HEAD (GET when HEAD is refused) through an injectable fetch, a few at a time, each with
 *   a timeout; only when network checks are allowed.
 *
 * The results are facts of the file system and the network at one moment: the reactor records
 * them as events before anything is derived from them (DESIGN.md invariant 4).
 *
 * The options and the report are in ./verify-options.ts, the URL checks in ./verify-urls.ts.
 */

type Verdict = { status: VerificationStatus; reason: string };

export async function verifyClaims(claims: readonly Claim[], options: VerifyOptions): Promise<VerificationReport> {
  if (!isAbsolute(options.root)) throw new EngramError('USAGE', `verifyClaims needs an absolute project root, not ${JSON.stringify(options.root)}`);
  const root = resolve(options.root);
  const run = new Run(root, options);

  const rootInfo = await stat(root).then(
    (info) => (info.isDirectory() ? 'ok' : 'not a directory'),
    (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 'gone' : `unreadable (${err.code ?? 'error'})`),
  );
  if (rootInfo !== 'ok') {
    const orphaned = rootInfo === 'gone' || rootInfo === 'not a directory';
    const reason = orphaned ? 'the project directory no longer exists' : `the project directory is ${rootInfo}`;
    return { root, orphaned, results: claims.map((claim) => ({ claim, status: 'unverifiable', reason })), aborted: false, budgetExhausted: false };
  }

  const verdicts = new Map<string, Verdict>();
  const distinct = distinctClaims(claims);
  const checked = distinct.slice(0, run.budget.maxClaims);
  for (const claim of distinct.slice(run.budget.maxClaims)) {
    run.exhausted = true;
    verdicts.set(claimKey(claim), { status: 'unverifiable', reason: `more than ${run.budget.maxClaims} claims in one run` });
  }

  // Cheap checks first, so a budget spent on scanning or the network leaves them done.
  const byKind = <K extends Claim['kind']>(kind: K) => checked.filter((claim): claim is Extract<Claim, { kind: K }> => claim.kind === kind);
  for (const claim of [...byKind('path'), ...byKind('branch'), ...byKind('package')]) {
    verdicts.set(claimKey(claim), await run.guarded(claim, () => run.verifyOne(claim)));
  }
  for (const [claim, verdict] of await run.verifySymbols(byKind('symbol'))) verdicts.set(claimKey(claim), verdict);
  for (const [claim, verdict] of await verifyUrls(byKind('url'), run)) verdicts.set(claimKey(claim), verdict);

  return {
    root,
    orphaned: false,
    results: claims.map((claim) => ({ claim, ...(verdicts.get(claimKey(claim)) ?? { status: 'unverifiable', reason: 'not checked' }) })),
    aborted: options.signal?.aborted === true,
    budgetExhausted: run.exhausted,
  };
}

/** One verification run: its budget, and what it has learned of the project so far. */
class Run {
  readonly budget: Required<VerifyBudget>;
  exhausted = false;
  private readonly deadline: number;
  private readonly now: () => number;
  private readonly homeDir: string;
  private readonly gitBinary: string | undefined;
  private tree: Promise<ProjectTree> | undefined;
  private git: Promise<GitLocation | undefined> | undefined;
  private packages: Promise<ProjectPackages> | undefined;

  constructor(
    readonly root: string,
    readonly options: VerifyOptions,
  ) {
    this.budget = { ...DEFAULT_VERIFY_BUDGET, ...options.budget };
    this.now = options.monotonic ?? (() => performance.now());
    this.deadline = this.now() + this.budget.timeMs;
    this.homeDir = options.homeDir ?? homedir();
    this.gitBinary = options.git === false ? undefined : typeof options.git === 'string' ? options.git : 'git';
  }

  /** Why to stop now: aborted, or out of time. */
  stopped = (): string | undefined => {
    if (this.options.signal?.aborted) return 'the run was aborted';
    if (this.now() >= this.deadline) {
      this.exhausted = true;
      return 'the time budget was spent';
    }
    return undefined;
  };

  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /** Runs one check unless the run has stopped; a check that throws is unverifiable, never fatal. */
  async guarded(claim: Claim, check: () => Promise<Verdict>): Promise<Verdict> {
    if (!claim.verifiable) return { status: 'unverifiable', reason: claim.reason ?? 'cannot be checked' };
    const stop = this.stopped();
    if (stop) return { status: 'unverifiable', reason: stop };
    try {
      return await withTimeout(check(), this.remainingMs(), () => {
        this.exhausted = true;
        return { status: 'unverifiable', reason: 'the time budget was spent' };
      });
    } catch (err) {
      return { status: 'unverifiable', reason: `the check failed: ${(err as Error).message ?? String(err)}` };
    }
  }

  verifyOne(claim: PathClaim | BranchClaim | PackageClaim): Promise<Verdict> {
    switch (claim.kind) {
      case 'path':
        return this.verifyPath(claim);
      case 'branch':
        return this.verifyBranch(claim);
      case 'package':
        return this.verifyPackage(claim);
    }
  }

  private projectTree(): Promise<ProjectTree> {
    this.tree ??= walkProjectTree(this.root, { maxEntries: this.budget.maxEntries, stopped: this.stopped }).then((tree) => {
      if (!tree.complete) this.exhausted = true;
      return tree;
    });
    return this.tree;
  }

  private gitLocation(): Promise<GitLocation | undefined> {
    this.git ??= findGitDir(this.root);
    return this.git;
  }

  // -- paths ------------------------------------------------------------------------------------

  private async verifyPath(claim: PathClaim): Promise<Verdict> {
    let target: string;
    if (claim.anchor === 'home') {
      target = join(this.homeDir, claim.value.replace(/^(?:~|\$HOME|\$\{HOME\})\//, ''));
    } else if (claim.anchor === 'absolute') {
      // A path under a top-level directory this machine does not have (/Users on Linux) is about another machine.
      const top = `/${claim.value.split('/')[1] ?? ''}`;
      if (!(await exists(top))) return { status: 'unverifiable', reason: `a path on another machine: ${top} does not exist here` };
      target = claim.value;
    } else {
      target = resolve(this.root, claim.value);
    }
    const info = await stat(target).catch((err: NodeJS.ErrnoException) => err);
    if (!(info instanceof Error)) {
      if (claim.directory && !info.isDirectory()) return { status: 'missing', reason: 'exists, but is not a directory' };
      return { status: 'ok', reason: info.isDirectory() ? 'the directory exists' : 'the file exists' };
    }
    const code = (info as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return { status: 'unverifiable', reason: `cannot be looked at (${code ?? info.message})` };
    if (claim.anchor !== 'relative' || claim.value.startsWith('./') || claim.value.startsWith('../')) {
      return { status: 'missing', reason: 'does not exist' };
    }
    // Not where the root says: a bare name may live anywhere, and a project-relative path may be
    // relative to a package of a monorepo, or the session may have started in a subdirectory.
    const tree = await this.projectTree();
    const wanted = claim.value.replace(/\/$/, '');
    const candidates = claim.directory ? tree.dirs : [...tree.files, ...tree.dirs];
    const hit = candidates.find((path) => path === wanted || path.endsWith(`/${wanted}`));
    if (hit) return { status: 'ok', reason: `found at ${hit}` };
    if (!tree.complete) return { status: 'unverifiable', reason: 'not at the project root, and the tree is larger than the scan budget' };
    return { status: 'missing', reason: claim.bare ? 'no file of that name in the project' : 'does not exist' };
  }

  // -- branches ---------------------------------------------------------------------------------

  private async verifyBranch(claim: BranchClaim): Promise<Verdict> {
    if (!isValidBranchName(claim.value)) return { status: 'unverifiable', reason: 'not a valid branch name' };
    const git = await this.gitLocation();
    if (!git) return { status: 'unverifiable', reason: 'the project is not a git repository' };
    if (git.reftable) {
      if (!this.gitBinary) return { status: 'unverifiable', reason: 'the repository keeps its refs in reftable format, and git may not be run' };
      for (const ref of [`refs/heads/${claim.value}`, `refs/remotes/${claim.value}`]) {
        const code = await this.runGit(['show-ref', '--verify', '--quiet', ref]);
        if (code === 0) return { status: 'ok', reason: `${ref} exists` };
        if (code !== 1) return { status: 'unverifiable', reason: 'git show-ref failed' };
      }
      return { status: 'missing', reason: 'no such branch in the repository' };
    }
    const found = await lookUpBranch(git, claim.value);
    return found.found ? { status: 'ok', reason: `exists: ${found.how}` } : { status: 'missing', reason: 'no such branch in the repository' };
  }

  // -- packages ---------------------------------------------------------------------------------

  private projectPackages(): Promise<ProjectPackages> {
    this.packages ??= this.projectTree().then((tree) => {
      // The root's manifests and those of workspace packages a few levels down.
      const manifests = tree.files.filter((file) => file.split('/').length <= 3 && isManifestName(file.slice(file.lastIndexOf('/') + 1)));
      return readProjectPackages(this.root, manifests, this.budget.maxManifestBytes);
    });
    return this.packages;
  }

  private async verifyPackage(claim: PackageClaim): Promise<Verdict> {
    const packages = await this.projectPackages();
    const ecosystems: Ecosystem[] = claim.ecosystem === 'any' ? ['npm', 'pypi', 'cargo', 'go', 'gem', 'composer'] : [claim.ecosystem];
    const read = ecosystems.flatMap((ecosystem) => packages.sources.get(ecosystem) ?? []);
    for (const ecosystem of ecosystems) {
      const known = packages.names.get(ecosystem);
      if (known && hasPackage(known, claim.value, ecosystem)) {
        return { status: 'ok', reason: `in ${(packages.sources.get(ecosystem) ?? []).join(', ')}` };
      }
    }
    const unreadable = ecosystems.flatMap((ecosystem) => packages.unreadable.get(ecosystem) ?? []);
    if (unreadable.length > 0) return { status: 'unverifiable', reason: `not found, and ${unreadable.join(', ')} could not be read` };
    const tree = await this.projectTree();
    if (read.length === 0) {
      const what = claim.ecosystem === 'any' ? 'package manifest' : `${claim.ecosystem} manifest`;
      return { status: 'unverifiable', reason: tree.complete ? `the project has no ${what}` : `no ${what} found within the scan budget` };
    }
    return { status: 'missing', reason: `not in ${read.join(', ')}` };
  }

  // -- symbols ----------------------------------------------------------------------------------

  async verifySymbols(claims: readonly SymbolClaim[]): Promise<Array<[SymbolClaim, Verdict]>> {
    const out: Array<[SymbolClaim, Verdict]> = [];
    const pending: SymbolClaim[] = [];
    for (const claim of claims) {
      if (!claim.verifiable || claim.terms.length === 0) out.push([claim, { status: 'unverifiable', reason: claim.reason ?? 'nothing to search for' }]);
      else pending.push(claim);
    }
    if (pending.length === 0) return out;
    const stop = this.stopped();
    if (stop) return [...out, ...pending.map((claim): [SymbolClaim, Verdict] => [claim, { status: 'unverifiable', reason: stop }])];
    const terms = [...new Set(pending.flatMap((claim) => claim.terms))];
    const state = new Map<string, Verdict>();
    try {
      await this.searchWithGit(terms, state);
      const rest = terms.filter((term) => !state.has(term));
      if (rest.length > 0 && !this.stopped()) {
        const tree = await this.projectTree();
        const scan = await scanForIdentifiers(this.root, tree, rest, { ...this.budget, maxEntries: this.budget.maxEntries, stopped: this.stopped });
        if (!scan.complete && scan.incompleteBecause !== 'the run was aborted') this.exhausted = true;
        for (const term of rest) {
          if (scan.found.has(term)) state.set(term, { status: 'ok', reason: 'found in the source' });
          else if (scan.complete) state.set(term, { status: 'missing', reason: 'not found in the source' });
          else state.set(term, { status: 'unverifiable', reason: `not found, but ${scan.incompleteBecause}` });
        }
      }
    } catch (err) {
      for (const term of terms) if (!state.has(term)) state.set(term, { status: 'unverifiable', reason: `the search failed: ${(err as Error).message}` });
    }
    for (const claim of pending) {
      const verdicts = claim.terms.map((term) => [term, state.get(term) ?? { status: 'unverifiable' as const, reason: this.stopped() ?? 'not searched' }] as const);
      const missing = verdicts.find(([, verdict]) => verdict.status === 'missing');
      const unknown = verdicts.find(([, verdict]) => verdict.status === 'unverifiable');
      if (missing) out.push([claim, { status: 'missing', reason: `\`${missing[0]}\` is ${missing[1].reason}` }]);
      else if (unknown) out.push([claim, { status: 'unverifiable', reason: `\`${unknown[0]}\`: ${unknown[1].reason}` }]);
      else out.push([claim, { status: 'ok', reason: verdicts.map(([term, verdict]) => `\`${term}\` ${verdict.reason}`).join('; ') }]);
    }
    return out;
  }

  /**
   * `git grep` over tracked and untracked, not ignored, source files: fast, and it stops at the
   * first match (-q). A term it cannot answer for (git missing, not a repository, an error, a
   * timeout) is left to the file scan.
   */
  private async searchWithGit(terms: readonly string[], state: Map<string, Verdict>): Promise<void> {
    if (!this.gitBinary || !(await this.gitLocation())) return;
    const pathspecs = [
      ...SOURCE_EXTENSIONS.map((ext) => `:(glob)**/*.${ext}`),
      ...[...SKIPPED_DIRS].map((dir) => `:(exclude,glob)**/${dir}/**`),
    ];
    for (const term of terms) {
      if (this.stopped()) return;
      const code = await this.runGit(['grep', '-q', '-I', '-w', '-F', '--untracked', '-e', term, '--', ...pathspecs]);
      if (code === 0) state.set(term, { status: 'ok', reason: 'found in the source' });
      else if (code === 1) state.set(term, { status: 'missing', reason: 'not found in the source' });
      // No git, or a git that refuses this repository (safe.directory) or timed out: it will not do better for the next name.
      else return;
    }
  }

  /** Exit code of a git command in the root, 'no-git' when there is no git, 'failed' otherwise. */
  private runGit(args: readonly string[]): Promise<number | 'no-git' | 'failed'> {
    const timeout = Math.max(1, Math.min(this.budget.gitTimeoutMs, this.remainingMs()));
    return new Promise((resolvePromise) => {
      execFile(
        this.gitBinary!,
        // A repository's config can name programs git runs (core.fsmonitor); never for a check.
        ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', ...args],
        {
          cwd: this.root,
          timeout,
          maxBuffer: 64 * 1024,
          windowsHide: true,
          env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
          ...(this.options.signal ? { signal: this.options.signal } : {}),
        },
        (err) => {
          if (!err) return resolvePromise(0);
          const failure = err as { code?: unknown; killed?: boolean };
          if (failure.code === 'ENOENT') return resolvePromise('no-git');
          if (typeof failure.code === 'number' && !failure.killed) return resolvePromise(failure.code);
          resolvePromise('failed');
        },
      );
    });
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<T>((resolvePromise) => (timer = setTimeout(() => resolvePromise(onTimeout()), Math.max(1, ms))))]);
  } finally {
    clearTimeout(timer);
  }
}
