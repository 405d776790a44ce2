import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookTable, type HookEvent } from '../src/cli/hook-table.js';
import { readPidFile } from '../src/launch/live-worker.js';
import { runtimeLockfile, type Lockfile } from '../src/plugin/runtime-lockfile.js';
import { cleanClone } from './support/clean-clone.js';
import { memoryTmpdir } from './support/memory-tmpdir.js';
import { repoRoot, runCommand, useTempHomes, type ProcessResult } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

/**
 * engram as people install it with npm: packed from a clean clone (no dist: `prepack` builds it),
 * installed from the tarball into a temporary prefix the way npx installs a package (a
 * package.json and a lockfile, `npm ci`), registered with `engram install`, driven by its
 * installed hooks; then a newer version installed over it while its worker runs and a session
 * is open. npm prefers its cache: after `npm ci` filled it, nothing is fetched. The pack and the
 * install are slow, so they are done once for the file, and the tarball's install (≈ 260 MB
 * unpacked, LanceDB's native part most of it) runs while the clone's `npm install -g .` is tested:
 * the tests of the installed copy wait for it (`tarballInstalled`).
 */
const home = useTempHomes();
let work: string;
let prefix: string;
let tarball: string;
let version: string;
let build: string;
let packed: string[];
let clone: string;
let tarballInstalled: Promise<void>;

function npmEnv(): NodeJS.ProcessEnv {
  // The CA file vitest.config.ts set aside: npm may still reach the registry through a proxy.
  const ca = process.env.ENGRAM_TEST_EXTRA_CA_CERTS === undefined ? {} : { NODE_EXTRA_CA_CERTS: process.env.ENGRAM_TEST_EXTRA_CA_CERTS };
  return { ...process.env, ...ca, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' };
}

function npm(args: string[], cwd: string): void {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: npmEnv() });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} in ${cwd}: ${result.stderr.slice(-3000)}`);
}

/** {@link npm} without blocking this process: the tests that do not need its result run meanwhile. */
function npmInBackground(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env: npmEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm ${args.join(' ')} in ${cwd} exited ${code}: ${stderr.slice(-3000)}`))));
  });
}

/** The prefix's package.json and lockfile for `engram` from `tarballName`, with engram's locked dependencies. */
function writeInstallManifest(pkg: { version: string; dependencies: Record<string, string> }, tarballName: string): void {
  const lock = runtimeLockfile(JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lockfile, 'engram-install', pkg.dependencies);
  lock.packages[''] = { name: 'engram-install', version: '0.0.0', dependencies: { engram: `file:${tarballName}` } };
  lock.packages['node_modules/engram'] = { version: pkg.version, resolved: `file:${tarballName}`, dependencies: pkg.dependencies, bin: { engram: 'dist/src/cli/main.js' }, engines: { node: '>=20' } };
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'engram-install', version: '0.0.0', private: true, dependencies: { engram: `file:${tarballName}` } }, null, 2));
  writeFileSync(join(prefix, 'package-lock.json'), JSON.stringify(lock, null, 2));
}

beforeAll(() => {
  // The clone, the tarballs, the prefix's ≈ 260 MB install and the global link: tmpfs where it has room.
  work = mkdtempSync(join(memoryTmpdir(2 * 1024 ** 3), 'engram-pack-'));
  clone = join(work, 'clone');
  cleanClone(repoRoot, clone);
  expect(existsSync(join(clone, 'dist'))).toBe(false);
  // What `npm ci` gives a clean clone: the build tools.
  symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
  npm(['pack', '--pack-destination', work, '--loglevel=error'], clone);
  const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
  version = pkg.version;
  tarball = join(work, `engram-${version}.tgz`);
  packed = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n');
  prefix = join(work, 'prefix');
  mkdirSync(prefix);
  cpSync(tarball, join(prefix, `engram-${version}.tgz`));
  writeInstallManifest(pkg, `engram-${version}.tgz`);
  tarballInstalled = npmInBackground(['ci', '--no-audit', '--no-fund', '--loglevel=error'], prefix).then(() => {
    build = /"([^"]+)"/.exec(readFileSync(join(prefix, 'node_modules', 'engram', 'dist', 'src', 'build-id.js'), 'utf8'))![1]!;
  });
  // Awaited by the tests that use it; a failure is theirs to report, not an unhandled rejection.
  tarballInstalled.catch(() => undefined);
}, 900_000);

afterAll(async () => {
  await tarballInstalled?.catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

function engram(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  // The bin npm linked, run as a shell would run it (its #! line), not through our node.
  return runCommand(join(prefix, 'node_modules', '.bin', 'engram'), args, { env });
}

type Settings = { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };

/** Runs the command `engram install` wrote for `event`, as Claude Code does. */
function runInstalledHook(settingsPath: string, event: HookEvent, payload: object, env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Settings;
  const command = settings.hooks[event]![0]!.hooks[0]!.command;
  return runCommand('sh', ['-c', command], { env, stdin: JSON.stringify({ hook_event_name: event, ...payload }) });
}

async function dump(env: NodeJS.ProcessEnv): Promise<Array<{ id: string; type: string; producer?: string }>> {
  const result = await engram(['log', 'dump'], env);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; type: string; producer?: string });
}

const session = (cwd: string) => ({ session_id: 'npm-session', cwd, transcript_path: join(cwd, 'transcript.jsonl') });

/** The README's install-from-a-clone block: the lines between its ```sh fence after "## Install" and the fence's end. */
function readmeCloneLines(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const install = readme.slice(readme.indexOf('## Install'));
  const block = /```sh\n([\s\S]*?)```/.exec(install)![1]!;
  return block.trim().split('\n').map((line) => line.replace(/\s+#.*$/, '').trim());
}

describe('installed from a clone, as the README says', () => {
  it('`npm install -g .` in a clone puts an executable `engram` on PATH; `engram install` and `engram doctor` run from it', { timeout: 300_000 }, async () => {
    const lines = readmeCloneLines();
    expect(lines[0]).toMatch(/^git clone .* engram && cd engram$/);
    expect(lines.slice(1)).toEqual(['npm install', 'npm install -g .', 'engram install', 'engram doctor']);
    // `git clone` and `npm install` are what beforeAll did (a clean clone, its dependencies as
    // `npm ci` gives them, dist/ built by `npm pack`'s prepack as `prepare` builds it): the bin
    // must be executable straight out of the build, whoever links it.
    expect(statSync(join(clone, 'dist', 'src', 'cli', 'main.js')).mode & 0o111).toBe(0o111);
    const h = home({ HOME: join(work, 'user-home') });
    const global = join(work, 'global');
    // The README's lines as written, with npm's global prefix and the user's home temporary.
    const env = { ...h.env, npm_config_prefix: global, npm_config_offline: 'true', npm_config_update_notifier: 'false', PATH: `${join(global, 'bin')}:${process.env.PATH}` };
    const sh = (line: string) => runCommand('sh', ['-c', line], { cwd: clone, env });
    const linked = await sh(`${lines[2]} --no-audit --no-fund --loglevel=error`);
    expect(linked.code, linked.stderr).toBe(0);
    const installed = await sh(lines[3]!);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`updated: ${join(h.paths.claude, 'settings.json')}`);
    const doctor = await sh(lines[4]!);
    expect(doctor.stdout).toContain(`✓ engram ${version}`);
    expect(doctor.stdout).toContain(`✓ hooks are installed in ${join(h.paths.claude, 'settings.json')}`);
    expect(doctor.stdout).not.toContain('✗');
    expect(doctor.code).toBe(0);
  });
});

describe('installed with npm from the packed tarball', () => {
  it('carries only what runs, and `npm pack` built it from a clone without dist', { timeout: 900_000 }, async () => {
    await tarballInstalled;
    expect(packed).toContain('package/dist/src/cli/main.js');
    expect(packed).toContain('package/dist/migrations/index.js');
    for (const spec of hookTable) expect(packed).toContain(`package/dist/hooks/${spec.file}`);
    expect(packed.filter((file) => /^package\/(test|fixtures|bench|scripts|src|plugin|dist\/(test|bench|scripts))\//.test(file) || file.endsWith('.map'))).toEqual([]);
    expect(build).toMatch(new RegExp(`^${version.replace(/\./g, '\\.')}\\+\\d+$`));
  });

  it('installs LanceDB without its transformers.js embedding function, which engram never loads, and LanceDB runs from the install', { timeout: 900_000 }, async () => {
    await tarballInstalled;
    const lock = JSON.parse(readFileSync(join(prefix, 'package-lock.json'), 'utf8')) as Lockfile;
    expect(lock.packages['node_modules/@lancedb/lancedb']!.optionalDependencies).not.toHaveProperty('@huggingface/transformers');
    for (const gone of ['@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-web', 'sharp']) expect(existsSync(join(prefix, 'node_modules', gone))).toBe(false);
    const table = "const db = await (await import('@lancedb/lancedb')).connect(process.argv[1]); const t = await db.createTable('t', [{ id: 1, vector: [0.5, 0.25] }]); console.log(await t.countRows());";
    const run = await runCommand(process.execPath, ['--input-type=module', '-e', table, join(work, 'lance')], { cwd: join(prefix, 'node_modules', 'engram'), env: process.env });
    expect(run.stdout.trim(), run.stderr).toBe('1');
  });

  it('engram install registers the installed copy\'s hooks by absolute path; a session through them is recorded and projected, and doctor is all ✓', { timeout: 900_000 }, async () => {
    await tarballInstalled;
    const h = home({ ENGRAM_WORKER_AUTOSTART: '1' });
    expect((await engram(['--version'], h.env)).stdout).toBe(`engram ${version} (build ${build})\n`);
    const installed = await engram(['install'], h.env);
    expect(installed.code, installed.stderr).toBe(0);
    const settingsPath = join(h.paths.claude, 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Settings;
    const hooksDir = realpathSync(join(prefix, 'node_modules', 'engram', 'dist', 'hooks'));
    for (const spec of hookTable) expect(settings.hooks[spec.event]![0]!.hooks[0]!.command).toContain(`"${join(hooksDir, spec.file)}"`);

    const cwd = join(h.root, 'project');
    const steps: Array<[HookEvent, object]> = [
      ['SessionStart', { source: 'startup' }],
      ['UserPromptSubmit', { prompt: 'the release script forgets the changelog' }],
      ['PostToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run release' }, tool_response: { stdout: '' }, tool_use_id: 't1' }],
      ['Stop', { stop_hook_active: false, last_assistant_message: 'It now writes the changelog first.' }],
      ['SessionEnd', { reason: 'prompt_input_exit' }],
    ];
    for (const [event, payload] of steps) {
      const run = await runInstalledHook(settingsPath, event, { ...session(cwd), ...payload }, h.env);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
    }
    // A hook started the installed worker; it takes the spool by itself.
    expect(await waitUntil(() => existsSync(h.paths.spoolNew) && readdirSync(h.paths.spoolNew).length === 0, 60_000)).toBe(true);
    expect((await engram(['worker', '--drain'], h.env)).code).toBe(0);
    const events = await dump(h.env);
    expect(events.map((e) => e.type)).toEqual(['SessionStarted', 'PromptSubmitted', 'ToolCalled', 'TurnStopped', 'SessionEnded', 'TranscriptCaptured']);
    expect(events.every((e) => e.producer === build)).toBe(true);

    const doctor = await engram(['doctor'], h.env);
    expect(doctor.stdout).toContain(`✓ engram ${version} (build ${build})`);
    expect(doctor.stdout).toContain(`✓ hooks are installed in ${settingsPath}`);
    expect(doctor.stdout).not.toContain('✗');
    expect(doctor.code).toBe(0);

    // Uninstalled: exactly its hooks go; the log and the home stay.
    expect((await engram(['uninstall'], h.env)).code).toBe(0);
    expect((JSON.parse(readFileSync(settingsPath, 'utf8')) as Partial<Settings>).hooks).toBeUndefined();
    expect(await dump(h.env)).toHaveLength(events.length);
  });

  it('a newer version installed over it while its worker runs and a session is open: the old worker hands over, the changed projection is rebuilt, nothing is lost or doubled', { timeout: 900_000 }, async () => {
    await tarballInstalled;
    const h = home({ ENGRAM_WORKER_AUTOSTART: '1' });
    expect((await engram(['install'], h.env)).code).toBe(0);
    const settingsPath = join(h.paths.claude, 'settings.json');
    const cwd = join(h.root, 'project');
    const hook = async (event: HookEvent, payload: object) => {
      const run = await runInstalledHook(settingsPath, event, { ...session(cwd), ...payload }, h.env);
      expect(run.code).toBe(0);
    };
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: 'the staging deploy needs the feature flag' });
    // Waited for by the worker's pid file (which names its build), then asked of the installed CLI
    // once: a `worker status` per poll cost a node start and the CLI's imports each time.
    const workerBuild = async () => /build (\S+),/.exec((await engram(['worker', 'status'], h.env)).stdout)?.[1];
    const settled = (expected: string) => readPidFile(h.paths.pidFile)?.build === expected && readdirSync(h.paths.spoolNew).length === 0;
    expect(await waitUntil(() => settled(build), 60_000)).toBe(true);
    expect(await workerBuild()).toBe(build);

    // Version N+1: this tarball as the next release would differ from it, a newer version and
    // build, and the sessions projection's projectorVersion raised.
    const next = join(work, 'next');
    mkdirSync(next, { recursive: true });
    spawnSync('tar', ['xzf', tarball, '-C', next]);
    const nextVersion = version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
    const nextBuild = `${nextVersion}+${Number(build.split('+')[1]) + 1}`;
    const restamp = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) restamp(path);
        else if (/\.c?js$/.test(entry.name)) {
          const text = readFileSync(path, 'utf8');
          if (text.includes(build)) writeFileSync(path, text.split(build).join(nextBuild));
        }
      }
    };
    restamp(join(next, 'package', 'dist'));
    const sessionsJs = join(next, 'package', 'dist', 'src', 'projections', 'sessions.js');
    const projector = readFileSync(sessionsJs, 'utf8');
    const raised = projector.replace(/(name: 'sessions',[\s\S]*?projectorVersion: )(\d+)/, (_m, head: string, n: string) => `${head}${Number(n) + 1}`);
    expect(raised).not.toBe(projector);
    writeFileSync(sessionsJs, raised);
    const nextPkg = JSON.parse(readFileSync(join(next, 'package', 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
    nextPkg.version = nextVersion;
    writeFileSync(join(next, 'package', 'package.json'), JSON.stringify(nextPkg, null, 2));
    const nextTarball = `engram-${nextVersion}.tgz`;
    spawnSync('tar', ['czf', join(prefix, nextTarball), '-C', next, 'package']);
    writeInstallManifest(nextPkg, nextTarball);
    // Over the running install: the worker N keeps running from files npm replaces under it
    // (`npm install` changes only what the lockfile changed: engram).
    npm(['install', '--no-audit', '--no-fund', '--loglevel=error'], prefix);
    expect((await engram(['--version'], h.env)).stdout).toBe(`engram ${nextVersion} (build ${nextBuild})\n`);
    expect((await engram(['install'], h.env)).stdout).toContain('unchanged');

    // The session goes on through the same hook paths, now version N+1's.
    await hook('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run deploy -- --staging' }, tool_response: { stdout: '' }, tool_use_id: 't2' });
    await hook('Stop', { stop_hook_active: false, last_assistant_message: 'Deployed with the flag.' });
    await hook('SessionEnd', { reason: 'prompt_input_exit' });
    expect(await waitUntil(() => settled(nextBuild), 120_000)).toBe(true);
    expect(await workerBuild()).toBe(nextBuild);
    expect((await engram(['worker', '--drain'], h.env)).code).toBe(0);

    const events = await dump(h.env);
    expect(events.map((e) => `${e.type}@${e.producer}`)).toEqual([
      `SessionStarted@${build}`,
      `PromptSubmitted@${build}`,
      `ToolCalled@${nextBuild}`,
      `TurnStopped@${nextBuild}`,
      `SessionEnded@${nextBuild}`,
      `TranscriptCaptured@${nextBuild}`,
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const doctor = await engram(['doctor'], h.env);
    expect(doctor.stdout).toMatch(/✓ projection sessions was rebuilt from the log at \S+ because [^\n]*projectorVersion/);
    expect(doctor.stdout.match(/was rebuilt from the log/g)).toHaveLength(1);
    expect(doctor.stdout).not.toContain('✗');
    const day = readdirSync(join(h.paths.views, 'sessions'), { recursive: true }).map(String).find((f) => f.endsWith('.jsonl'))!;
    const line = readFileSync(join(h.paths.views, 'sessions', day), 'utf8');
    expect(line).toContain('npm-session');
  });
});
