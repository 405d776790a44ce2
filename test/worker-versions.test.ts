import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { compareBuilds } from '../src/compare-builds.js';
import { liveWorker, readPidFile } from '../src/launch/live-worker.js';
import { currentBuild, olderBuild, type OlderBuild } from './support/older-build.js';
import { cliHere, cliPath, drain, dumpLog, hooksDir, runHook, runProcess, tempHome, type TempHome } from './support/temp-home.js';
import { processGone, waitUntil } from './support/wait-until.js';

/**
 * The mixed-version tests run at once (most of each is waiting for a worker to start or hand
 * over), each in a home of its own that goes, its worker stopped, when that test ends
 * (`useTempHomes` would remove every test's home after each one).
 */
function home(t: TestContext, env: NodeJS.ProcessEnv = {}): TempHome {
  const h = tempHome(env);
  t.onTestFinished(() => h.cleanup());
  return h;
}
// One older build for the file (a copy of dist, restamped): nothing runs it but from its own
// files, and each test's worker keeps its state in the test's own home.
const olderRoot = mkdtempSync(join(tmpdir(), 'engram-older-build-'));
afterAll(() => rmSync(olderRoot, { recursive: true, force: true }));
let sharedOlder: OlderBuild | undefined;
const olderOnce = () => (sharedOlder ??= olderBuild(olderRoot));
const prompt = (n: number) => ({ session_id: 'upgrade', cwd: '/home/dev/src/app', prompt: `prompt number ${n}` });

describe('builds', () => {
  it('are ordered by version, then pre-release, then build time; a worker without a build id is older than any', () => {
    const ordered = ['0.9.9+5', '0.10.0-beta.1+9', '0.10.0-beta.2+1', '0.10.0+1', '0.10.0+2', '1.0.0+0'];
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) expect(Math.sign(compareBuilds(ordered[i], ordered[j])), `${ordered[i]} vs ${ordered[j]}`).toBe(Math.sign(i - j));
    }
    expect(compareBuilds(undefined, '0.0.1+0')).toBeLessThan(0);
    expect(compareBuilds('garbage', '0.0.1+0')).toBeLessThan(0);
  });

  it('npm run build stamps one id into the CLI and every hook bundle', () => {
    const build = currentBuild();
    expect(build).toMatch(/^\d+\.\d+\.\d+(-[\w.-]+)?\+\d{13}$/);
    // The bundles carry it; each hook's entry (`<name>.cjs`, the same small file for all) only runs its bundle.
    const bundles = readdirSync(hooksDir).filter((file) => file.endsWith('.code.cjs'));
    expect(bundles).toHaveLength(8);
    for (const file of bundles) expect(readFileSync(join(hooksDir, file), 'utf8'), file).toContain(`"${build}"`);
  });
});

describe('mixed versions', () => {
  // First and alone: the in-process CLI's first engine command loads LevelDB and the engine;
  // two first loads at once in one process have failed here ("Level is not a constructor").
  it('a CLI of a newer build makes an older worker hand over before it runs a command', async (t) => {
    const h = home(t);
    const older = olderOnce();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    expect((await runProcess([older.cli, 'worker', '--detach'], h.env)).code).toBe(0);
    const before = readPidFile(h.paths.pidFile)!;
    expect((await runHook('UserPromptSubmit', prompt(1), h.env)).code).toBe(0);
    // The newer CLI's code, run in this process: the hand-over is its doing, not its process's.
    const stats = await cliHere(['log', 'stats', '--json'], h.env);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stderr).toContain(`the running worker (pid ${before.pid}, build ${older.build}) is older than this engram (${currentBuild()}); it hands over`);
    expect(await waitUntil(() => processGone(before.pid))).toBe(true);
    // ENGRAM_WORKER_AUTOSTART=0 here: the command ran in this process, and no worker was started.
    expect(await liveWorker(h.paths)).toBeUndefined();
    expect(JSON.parse(stats.stdout)).toMatchObject({ total: 1, spool: { pending: 0 } });
  });

  it.concurrent('a hook of a newer build makes an older worker hand over: it finishes, exits, and one of the new build takes the log', async (t) => {
    const h = home(t, { ENGRAM_WORKER_AUTOSTART: '1' });
    const older = olderOnce();
    expect((await runProcess([older.cli, 'worker', '--detach'], h.env)).code).toBe(0);
    const before = readPidFile(h.paths.pidFile)!;
    expect(before.build).toBe(older.build);
    // The older build's own hooks leave it alone.
    expect((await runProcess([join(older.hooksDir, 'user-prompt-submit.cjs')], h.env, JSON.stringify(prompt(1)))).code).toBe(0);
    expect(readPidFile(h.paths.pidFile)).toEqual(before);

    const result = await runHook('UserPromptSubmit', prompt(2), h.env);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await waitUntil(() => readPidFile(h.paths.pidFile)?.build === currentBuild())).toBe(true);
    expect(await waitUntil(() => processGone(before.pid))).toBe(true);
    const after = await liveWorker(h.paths);
    expect(after).toMatchObject({ build: currentBuild() });
    expect((await cliHere(['worker', 'status'], h.env)).stdout).toMatch(new RegExp(`^running: pid ${after!.pid}, build ${currentBuild().replace('+', '\\+')},`));
    await drain(h.env);
    expect((await dumpLog(h.env)).map((e) => e.data.prompt)).toEqual(['prompt number 1', 'prompt number 2']);
    const log = readFileSync(h.paths.workerLog, 'utf8');
    expect(log).toContain(`pid=${before.pid} stopping: handing over to build ${currentBuild()}`);
    expect(log).toContain(`pid=${after!.pid} started; build ${currentBuild()}`);
  });

  it.concurrent('`engram worker` run by hand takes over from an older worker', async (t) => {
    const h = home(t);
    const older = olderOnce();
    expect((await runProcess([older.cli, 'worker', '--detach'], h.env)).code).toBe(0);
    const before = readPidFile(h.paths.pidFile)!;
    const foreground = spawn(process.execPath, [cliPath, 'worker'], { env: h.env, stdio: 'ignore' });
    const exited = new Promise((resolve) => foreground.once('exit', resolve));
    try {
      expect(await waitUntil(() => readPidFile(h.paths.pidFile)?.pid === foreground.pid)).toBe(true);
      // The new worker names itself once it holds the log, which the older one closes before its
      // process has finished exiting (its model thread, sockets): gone soon after, not at that instant.
      expect(await waitUntil(() => processGone(before.pid))).toBe(true);
      expect(readPidFile(h.paths.pidFile)?.build).toBe(currentBuild());
    } finally {
      foreground.kill('SIGTERM');
      await exited;
    }
  });

  it.concurrent('an older worker does not make a newer one hand over', async (t) => {
    const h = home(t, { ENGRAM_WORKER_AUTOSTART: '1' });
    const older = olderOnce();
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    const before = readPidFile(h.paths.pidFile)!;
    expect((await runProcess([join(older.hooksDir, 'stop.cjs')], h.env, JSON.stringify({ session_id: 's', cwd: '/x' }))).code).toBe(0);
    expect((await runProcess([older.cli, 'log', 'stats'], h.env)).code).toBe(0);
    expect(await liveWorker(h.paths)).toEqual(before);
  });
});

describe.concurrent('the liveness check', () => {
  it('takes a live process that is not the worker (a reused pid) for no worker, with /proc and without it', async (t) => {
    const h = home(t);
    mkdirSync(h.paths.home, { recursive: true });
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      writeFileSync(h.paths.pidFile, `${stranger.pid}\n${currentBuild()}\n`);
      const noProc = join(h.root, 'no-proc');
      expect(await liveWorker(h.paths)).toBeUndefined();
      // Where /proc is missing (macOS) only the worker's socket can tell; nothing listens here.
      expect(await liveWorker(h.paths, { procRoot: noProc })).toBeUndefined();
      expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
      const worker = readPidFile(h.paths.pidFile)!;
      expect(worker.pid).not.toBe(stranger.pid);
      expect(await liveWorker(h.paths)).toEqual(worker);
      expect(await liveWorker(h.paths, { procRoot: noProc })).toEqual(worker);
    } finally {
      stranger.kill();
    }
  });
});
