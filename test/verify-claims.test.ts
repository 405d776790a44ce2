import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../src/errors.js';
import { extractClaims, type Claim } from '../src/memories/claims.js';
import { verificationPenalty } from '../src/memories/scores.js';
import { verifyClaims, type FetchLike, type VerifyOptions } from '../src/memories/verify-claims.js';

// Real git, real files; git's own config is kept out so a developer's settings cannot change the answers.
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

let base: string;
let repo: string;
let worktree: string;
let plain: string;
let unborn: string;
let home: string;

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'engram-verify-'));
  repo = join(base, 'repo');
  worktree = join(base, 'repo-wt');
  plain = join(base, 'plain');
  unborn = join(base, 'unborn');
  home = join(base, 'home');
  write(repo, {
    'src/config/load.ts': 'export class ConfigError extends Error {}\nexport function parseConfig(text: string) {\n  return db.migrate(text);\n}\n',
    'src/lib/logger.ts': 'export const createLogger = () => ({ info() {}, error() {} });\n',
    'src/render/invoice.ts': 'export class InvoiceRenderer {\n  async renderPdf() {}\n}\n',
    'app/http.py': 'def with_retries(fn):\n    return fn\n',
    'package.json': JSON.stringify({
      name: 'shop',
      dependencies: { zod: '^3.23.0' },
      devDependencies: { vitest: '^1.6.0', '@types/node': '^20' },
      peerDependencies: { react: '^18' },
      optionalDependencies: { fsevents: '^2' },
    }),
    'package-lock.json': JSON.stringify({ lockfileVersion: 3, packages: { '': {}, 'node_modules/zod': {}, 'node_modules/vitest/node_modules/tinypool': {} } }),
    'requirements.txt': '# pinned\nrequests==2.31.0\nPyYAML>=6  # config\n-r dev.txt\n',
    'pyproject.toml': '[project]\nname = "shop"\ndependencies = [\n  "httpx>=0.27",\n  "pydantic-settings",\n]\n\n[project.optional-dependencies]\ndev = ["pytest>=8"]\n\n[tool.poetry.dependencies]\npython = "^3.11"\nrich = "^13"\n',
    'Cargo.toml': '[package]\nname = "shop"\n\n[dependencies]\nserde_json = "1"\n\n[dependencies.tokio]\nversion = "1"\n\n[target.\'cfg(unix)\'.dev-dependencies]\nnix = "0.28"\n',
    'go.mod': 'module example.com/shop\n\ngo 1.22\n\nrequire (\n\tgithub.com/go-chi/chi/v5 v5.0.12\n)\n\nrequire golang.org/x/sync v0.7.0 // indirect\n',
    'packages/web/package.json': JSON.stringify({ name: '@shop/web', dependencies: { recharts: '^2' } }),
    'docs/only-in-docs.md': 'Call `onlyInDocs()`.\n',
    'node_modules/leftpad/index.js': 'function onlyInNodeModules() {}\n',
    'dist/bundle.js': 'function onlyInDist() {}\n',
    '.gitignore': 'node_modules/\ndist/\n',
  });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  git(repo, 'branch', 'feature/packed');
  git(repo, 'pack-refs', '--all');
  git(repo, 'branch', 'feature/loose');
  git(repo, 'worktree', 'add', '-q', '-b', 'wt/branch', worktree);
  // Untracked, not ignored: git grep --untracked still sees it.
  write(repo, { 'src/new-file.ts': 'export function untrackedHelper() {}\n' });

  write(plain, { 'README.md': 'no git here\n', 'src/a.ts': 'export const plainThing = 1;\n' });
  mkdirSync(unborn, { recursive: true });
  git(unborn, 'init', '-q', '-b', 'trunk');
  write(home, { '.config/acme/credentials.json': '{}' });
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

const verify = (body: string, options: Partial<VerifyOptions> = {}) => verifyClaims(extractClaims(body), { root: repo, homeDir: home, ...options });
const statuses = async (body: string, options: Partial<VerifyOptions> = {}) =>
  Object.fromEntries((await verify(body, options)).results.map((result) => [`${result.claim.kind} ${result.claim.value}`, result.status]));

describe('paths', () => {
  it('checks files and directories against the root, the home directory and the machine', async () => {
    expect(
      await statuses(
        [
          '`src/config/load.ts`, `src/gone.ts`, `src/lib/`, `package.json/` (a file, not a directory),',
          '`./app/http.py`, `../repo/package.json`, `~/.config/acme/credentials.json`, `~/.config/acme/missing.json`,',
          '`/tmp/scratch.json`, `src/**/*.ts`.',
        ].join('\n'),
      ),
    ).toEqual({
      'path src/config/load.ts': 'ok',
      'path src/gone.ts': 'missing',
      'path src/lib/': 'ok',
      'path package.json/': 'missing',
      'path ./app/http.py': 'ok',
      'path ../repo/package.json': 'ok',
      'path ~/.config/acme/credentials.json': 'ok',
      'path ~/.config/acme/missing.json': 'missing',
      'path /tmp/scratch.json': 'unverifiable',
      'path src/**/*.ts': 'unverifiable',
    });
  });

  it('absolute paths are looked at where they point', async () => {
    // The extractor calls anything under /tmp temporary, and this test's files live there: these claims are built by hand.
    const absolute = (value: string): Claim => ({ kind: 'path', value, span: { start: 0, end: 1 }, verifiable: true, anchor: 'absolute', directory: false, bare: false });
    const report = await verifyClaims([absolute(join(repo, 'go.mod')), absolute(join(base, 'nope.txt')), absolute('/nonexistent-engram-top/a.txt')], { root: repo });
    expect(report.results.map((result) => [result.status, result.reason])).toEqual([
      ['ok', 'the file exists'],
      ['missing', 'does not exist'],
      ['unverifiable', 'a path on another machine: /nonexistent-engram-top does not exist here'],
    ]);
  });

  it('finds a bare file name or a package-relative path anywhere in the tree, but not in node_modules', async () => {
    const report = await verify('`logger.ts`, `config/load.ts`, `index.js` and `nowhere.ts`');
    expect(report.results.map((result) => [result.claim.value, result.status, result.reason])).toEqual([
      ['logger.ts', 'ok', 'found at src/lib/logger.ts'],
      ['config/load.ts', 'ok', 'found at src/config/load.ts'],
      ['index.js', 'missing', 'no file of that name in the project'],
      ['nowhere.ts', 'missing', 'no file of that name in the project'],
    ]);
  });

  it('a path under a top directory this machine lacks is about another machine', async () => {
    const top = ['/Users', '/home'].find((dir) => !existsSync(dir));
    if (!top) return;
    const report = await verify(`Dotfiles in ${top}/dana/dotfiles/init.sh.`);
    expect(report.results[0]).toMatchObject({ status: 'unverifiable', reason: `a path on another machine: ${top} does not exist here` });
  });
});

describe('identifiers', () => {
  const body = [
    '`parseConfig()`, `ConfigError`, `db.migrate`, `InvoiceRenderer.renderPdf`, `with_retries()`,',
    '`untrackedHelper`, `createLogger`, `removedFunction()`, `InvoiceRenderer.renderHtml`,',
    '`onlyInNodeModules()`, `onlyInDist()`, `onlyInDocs()`, `JSON.parse()`.',
  ].join('\n');
  const expected = {
    'symbol parseConfig': 'ok',
    'symbol ConfigError': 'ok',
    'symbol db.migrate': 'ok',
    'symbol InvoiceRenderer.renderPdf': 'ok',
    'symbol with_retries': 'ok',
    'symbol untrackedHelper': 'ok',
    'symbol createLogger': 'ok',
    'symbol removedFunction': 'missing',
    'symbol InvoiceRenderer.renderHtml': 'missing',
    'symbol onlyInNodeModules': 'missing',
    'symbol onlyInDist': 'missing',
    'symbol onlyInDocs': 'missing',
    'symbol JSON.parse': 'unverifiable',
  };

  it('with git grep', async () => {
    expect(await statuses(body)).toEqual(expected);
  });

  it('git grep is what answered: one quiet grep per distinct name, nothing else', async () => {
    // A real git behind a script that notes its arguments, so the test sees which commands ran.
    const log = join(base, 'git-calls.log');
    const wrapper = join(base, 'git-logging.sh');
    writeFileSync(wrapper, `#!/bin/sh\ngit "$@"\ncode=$?\nprintf '%s => %s\\n' "$*" "$code" >> '${log}'\nexit $code\n`, { mode: 0o755 });
    rmSync(log, { force: true });
    expect(await statuses('`parseConfig()`, `InvoiceRenderer.renderPdf`, `InvoiceRenderer.renderHtml`', { git: wrapper })).toEqual({
      'symbol parseConfig': 'ok',
      'symbol InvoiceRenderer.renderPdf': 'ok',
      'symbol InvoiceRenderer.renderHtml': 'missing',
    });
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls.map((call) => / -e (\S+) /.exec(call)?.[1])).toEqual(['parseConfig', 'InvoiceRenderer', 'renderPdf', 'renderHtml']);
    expect(calls.every((call) => call.includes('grep -q -I -w -F --untracked'))).toBe(true);
    // 0 found, 1 not found: git answered; anything else would have fallen back to the scan.
    expect(calls.map((call) => call.split(' => ')[1])).toEqual(['0', '0', '0', '1']);
  });

  it('with the bounded file scan, the same answers', async () => {
    expect(await statuses(body, { git: false })).toEqual(expected);
  });

  it('when git is not on PATH, the scan answers', async () => {
    expect(await statuses(body, { git: join(base, 'no-such-git') })).toEqual(expected);
  });

  it('when git refuses the repository (exit 128, as for an unsafe directory), the scan answers', async () => {
    const refusing = join(base, 'git-refusing.sh');
    writeFileSync(refusing, '#!/bin/sh\necho "fatal: detected dubious ownership" >&2\nexit 128\n', { mode: 0o755 });
    expect(await statuses(body, { git: refusing })).toEqual(expected);
  });

  it('outside a git repository, the scan answers', async () => {
    expect(await statuses('`plainThing` and `notThere`', { root: plain })).toEqual({ 'symbol plainThing': 'ok', 'symbol notThere': 'missing' });
  });

  it('an incomplete scan never says missing', async () => {
    const report = await verify('`parseConfig()` and `removedFunction()`', { git: false, budget: { maxFileBytes: 16 } });
    expect(report.results.map((result) => result.status)).toEqual(['unverifiable', 'unverifiable']);
    expect(report.results[1]!.reason).toMatch(/larger than 16 bytes/);
    expect(report.budgetExhausted).toBe(true);
  });
});

describe('branches', () => {
  const body = 'Branches `feature/packed`, `feature/loose`, `wt/branch`, `main` and `feature/gone`; also the `origin/main` branch.';

  it('reads loose refs, packed-refs and worktree HEADs', async () => {
    expect(await statuses(body)).toEqual({
      'branch feature/packed': 'ok',
      'branch feature/loose': 'ok',
      'branch wt/branch': 'ok',
      'branch main': 'ok',
      'branch feature/gone': 'missing',
      'branch origin/main': 'missing',
    });
  });

  it('from a linked worktree, where .git is a file', async () => {
    expect(existsSync(join(worktree, '.git'))).toBe(true);
    expect(await statuses(body, { root: worktree })).toMatchObject({ 'branch feature/packed': 'ok', 'branch wt/branch': 'ok', 'branch feature/gone': 'missing' });
  });

  it('from a subdirectory of the repository', async () => {
    expect(await statuses('the `feature/loose` branch', { root: join(repo, 'src') })).toEqual({ 'branch feature/loose': 'ok' });
  });

  it('an unborn branch of a repository without commits exists', async () => {
    expect(await statuses('branch `trunk`, branch `other`', { root: unborn })).toEqual({ 'branch trunk': 'ok', 'branch other': 'missing' });
  });

  it('outside a repository, or with a name that is not a ref, unverifiable', async () => {
    expect(await statuses('branch `feature/x`', { root: plain })).toEqual({ 'branch feature/x': 'unverifiable' });
    const sneaky: Claim = { kind: 'branch', value: '../../config', span: { start: 0, end: 1 }, verifiable: true };
    const report = await verifyClaims([sneaky], { root: repo });
    expect(report.results[0]).toMatchObject({ status: 'unverifiable', reason: 'not a valid branch name' });
  });
});

describe('packages', () => {
  it('reads every kind of dependency, lockfiles and other ecosystems’ manifests', async () => {
    expect(
      await statuses(
        [
          '`npm i zod` `npm i -D vitest @types/node` the `react` package, the `fsevents` package, the `tinypool` package,',
          'the `recharts` package, `npm i left-pad`, `pip install requests pyyaml httpx pydantic_settings pytest rich flask`,',
          'the `serde-json` crate, `cargo add tokio nix anyhow`, `go get github.com/go-chi/chi/v5/middleware golang.org/x/sync github.com/x/y`,',
          '`gem install rails`, `bundle add rails`, the `shop` package.',
        ].join('\n'),
      ),
    ).toEqual({
      'package zod': 'ok',
      'package vitest': 'ok',
      'package @types/node': 'ok',
      'package react': 'ok',
      'package fsevents': 'ok',
      'package tinypool': 'ok',
      'package recharts': 'ok',
      'package left-pad': 'missing',
      'package requests': 'ok',
      'package pyyaml': 'ok',
      'package httpx': 'ok',
      'package pydantic_settings': 'ok',
      'package pytest': 'ok',
      'package rich': 'ok',
      'package flask': 'missing',
      'package serde-json': 'ok',
      'package tokio': 'ok',
      'package nix': 'ok',
      'package anyhow': 'missing',
      'package github.com/go-chi/chi/v5/middleware': 'ok',
      'package golang.org/x/sync': 'ok',
      'package github.com/x/y': 'missing',
      'package rails': 'unverifiable',
      'package shop': 'ok',
    });
  });

  it('without a manifest of that ecosystem, unverifiable; an unreadable manifest never makes a package missing', async () => {
    expect(await statuses('`npm i zod`', { root: plain })).toEqual({ 'package zod': 'unverifiable' });
    const broken = join(base, 'broken');
    write(broken, { 'package.json': '{ not json', 'requirements.txt': 'requests\n' });
    const report = await verify('`npm i zod` and `pip install flask`', { root: broken });
    expect(report.results.map((result) => [result.status, result.reason])).toEqual([
      ['unverifiable', 'not found, and package.json could not be read'],
      ['missing', 'not in requirements.txt'],
    ]);
  });
});

describe('URLs', () => {
  const urls = 'https://ok.acme.io/a https://gone.acme.io/b https://nohead.acme.io/c https://flaky.acme.io/d https://dns.acme.io/e https://login.acme.io/f http://localhost:3000/x';
  const answers: Record<string, number | Error> = {
    'https://ok.acme.io/a': 200,
    'https://gone.acme.io/b': 404,
    'https://nohead.acme.io/c': 405,
    'https://flaky.acme.io/d': 503,
    'https://dns.acme.io/e': Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } }),
    'https://login.acme.io/f': 401,
  };
  const calls: string[] = [];
  const fakeFetch: FetchLike = async (url, init) => {
    calls.push(`${init.method} ${url}`);
    const answer = answers[url]!;
    if (answer instanceof Error) throw answer;
    if (url.includes('nohead') && init.method === 'GET') return { status: 200, body: null };
    return { status: answer, body: null };
  };

  it('are not checked unless network checks are allowed', async () => {
    calls.length = 0;
    const report = await verify(urls, { fetch: fakeFetch });
    expect(new Set(report.results.map((result) => result.status))).toEqual(new Set(['unverifiable']));
    expect(report.results[0]!.reason).toBe('network checks are off');
    expect(calls).toEqual([]);
  });

  it('HEAD first, GET when HEAD is refused; 404 missing, 5xx unverifiable, a dead host missing when others answer', async () => {
    calls.length = 0;
    expect(await statuses(urls, { network: true, fetch: fakeFetch })).toEqual({
      'url https://ok.acme.io/a': 'ok',
      'url https://gone.acme.io/b': 'missing',
      'url https://nohead.acme.io/c': 'ok',
      'url https://flaky.acme.io/d': 'unverifiable',
      'url https://dns.acme.io/e': 'missing',
      'url https://login.acme.io/f': 'ok',
      'url http://localhost:3000/x': 'unverifiable',
    });
    expect(calls).toContain('GET https://nohead.acme.io/c');
    expect(calls.some((call) => call.includes('localhost'))).toBe(false);
  });

  it('when no URL answers, the network is taken to be down, not the URLs', async () => {
    const offline: FetchLike = async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'EAI_AGAIN' } });
    };
    const report = await verify('https://a.acme.io https://b.acme.io', { network: true, fetch: offline });
    expect(report.results.map((result) => result.status)).toEqual(['unverifiable', 'unverifiable']);
    expect(report.results[0]!.reason).toMatch(/network may be down/);
  });

  it('a URL that never answers times out', async () => {
    const hanging: FetchLike = (_, init) => new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const both: FetchLike = (url, init) => (url.includes('slow') ? hanging(url, init) : fakeFetch('https://ok.acme.io/a', init));
    const report = await verify('https://slow.acme.io https://fast.acme.io', { network: true, fetch: both, budget: { urlTimeoutMs: 50 } });
    expect(report.results.map((result) => [result.status, result.reason])).toEqual([
      ['missing', 'unreachable: timed out'],
      ['ok', 'HTTP 200'],
    ]);
  });
});

describe('the run', () => {
  it('a project directory that no longer exists: every claim unverifiable, and orphaned', async () => {
    const report = await verify('`src/a.ts`, branch `main`, `parseConfig()`', { root: join(base, 'deleted-project') });
    expect(report.orphaned).toBe(true);
    expect(report.results.map((result) => [result.status, result.reason])).toEqual([
      ['unverifiable', 'the project directory no longer exists'],
      ['unverifiable', 'the project directory no longer exists'],
      ['unverifiable', 'the project directory no longer exists'],
    ]);
  });

  it('aborted before it starts: nothing is checked, nothing is missing', async () => {
    const controller = new AbortController();
    controller.abort();
    const report = await verify('`src/gone.ts`, `removedFunction()`, branch `feature/gone`, `npm i left-pad`', { signal: controller.signal });
    expect(report.aborted).toBe(true);
    expect(report.results.map((result) => [result.status, result.reason])).toEqual([
      ['unverifiable', 'the run was aborted'],
      ['unverifiable', 'the run was aborted'],
      ['unverifiable', 'the run was aborted'],
      ['unverifiable', 'the run was aborted'],
    ]);
  });

  it('a spent time budget leaves the rest unverifiable (injected clock)', async () => {
    let now = 0;
    // Each look at the clock moves it 1 s on: the 3 s budget runs out after a few checks.
    // `./` paths are answered by one stat, no tree walk, so each check reads the clock the same number of times.
    const report = await verify('`./src/gone.ts` `./src/gone2.ts` `./src/gone3.ts` `./src/gone4.ts`', { monotonic: () => (now += 1000), budget: { timeMs: 3000 } });
    const statusesInOrder = report.results.map((result) => result.status);
    expect(statusesInOrder.slice(0, 1)).toEqual(['missing']);
    expect(statusesInOrder.at(-1)).toBe('unverifiable');
    expect(report.results.at(-1)!.reason).toBe('the time budget was spent');
    expect(report.budgetExhausted).toBe(true);
  });

  it('claims over the per-run cap are unverifiable; duplicates are checked once and reported for each', async () => {
    const report = await verify('`src/gone.ts` `src/lib/` `src/gone.ts` `app/http.py`', { budget: { maxClaims: 2 } });
    expect(report.results.map((result) => result.status)).toEqual(['missing', 'ok', 'missing', 'unverifiable']);
    expect(report.results[3]!.reason).toBe('more than 2 claims in one run');
  });

  it('a tree larger than the walk budget makes not-found unverifiable', async () => {
    const report = await verify('`logger.ts` and `nowhere.ts`', { budget: { maxEntries: 3 } });
    expect(report.results.map((result) => result.status)).toEqual(['unverifiable', 'unverifiable']);
  });

  it('a bad claim is unverifiable, never a throw', async () => {
    const weird: Claim[] = [
      { kind: 'path', value: 'a\u0000b', span: { start: 0, end: 1 }, verifiable: true, anchor: 'relative', directory: false, bare: true },
      { kind: 'symbol', value: 'x', span: { start: 0, end: 1 }, verifiable: true, terms: [] },
    ];
    const report = await verifyClaims(weird, { root: repo });
    expect(report.results.map((result) => result.status)).toEqual(['unverifiable', 'unverifiable']);
  });

  it('needs an absolute root', async () => {
    await expect(verifyClaims([], { root: 'relative/dir' })).rejects.toSatisfy((err: unknown) => isEngramError(err, 'USAGE'));
  });

  it('its results feed the staleness penalty directly', async () => {
    const report = await verify('`src/gone.ts`, `src/gone2.ts`, `removedFunction()`, branch `feature/loose`, https://x.acme.io');
    expect(verificationPenalty(report.results)).toBe(20 + 30);
  });
});
