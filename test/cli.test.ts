import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { runHookHere } from './support/hook-here.js';
import { memoryTmpdir } from './support/memory-tmpdir.js';
import { cliHere, cliPath, type ProcessResult, runCommand, type TempHome, tempHomeAt, walkFiles } from './support/temp-home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});
// In memory: what these commands do, not the disk under them (memory-tmpdir.ts).
const tempHome = (env: NodeJS.ProcessEnv = {}) => tempHomeAt(mkdtempSync(join(memoryTmpdir(), 'engram-test-')), env);

function seeded(sessions = 5, eventsPerSession = 30): TempHome {
  const h = tempHome();
  homes.push(h);
  mkdirSync(h.paths.spoolNew, { recursive: true });
  syntheticEvents({ sessions, eventsPerSession, projects: 2, seed: 9 }).forEach((event, i) =>
    writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + i)}-1-00000000.json`), JSON.stringify(event)),
  );
  return h;
}

/** The CLI started from `cwd`, as a user in that directory would run it. */
function runCliIn(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return runCommand(process.execPath, [cliPath, ...args], { cwd, env });
}

describe('the CLI', () => {
  it('answers the same with and without a running worker', async () => {
    const h = seeded();
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    // In this process (the same main, the same socket client as the bin's), one after the other;
    // `worker --detach` too: the worker it spawns is the bin's own process, as it must be. The
    // bin's own process answering through a worker is test/cli-bundle.test.ts's.
    const commands = [['log', 'dump'], ['log', 'stats', '--json'], ['migrate', '--dry-run']];
    const each = async () => {
      const results: ProcessResult[] = [];
      for (const args of commands) results.push(await cliHere(args, h.env));
      return results;
    };
    const alone = await each();
    expect((await cliHere(['worker', '--detach'], h.env)).stdout).toMatch(/^started: pid \d+/);
    const through = await each();
    expect(through.map((r) => [r.code, r.stdout])).toEqual(alone.map((r) => [r.code, r.stdout]));
    expect(alone[0]!.stdout.trim().split('\n').length).toBe(150);
    // --drain with a worker running waits for that worker to catch up instead of failing.
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    expect((await cliHere(['worker', 'stop'], h.env)).stdout).toMatch(/^stopped worker/);
    expect((await cliHere(['worker', 'status'], h.env)).stdout).toMatch(/^not running/);
  });

  it('rebuilds to the same bytes, with or without a worker, and replays a prefix elsewhere', async () => {
    const h = seeded();
    await cliHere(['worker', '--drain'], h.env);
    const before = walkFiles(h.paths.views, h.paths.claude);
    expect(Object.keys(before).length).toBeGreaterThan(5);
    expect((await cliHere(['rebuild'], h.env)).code).toBe(0);
    expect(walkFiles(h.paths.views, h.paths.claude)).toEqual(before);
    await cliHere(['worker', '--detach'], h.env);
    const only = await cliHere(['rebuild', '--only', 'stats'], h.env);
    expect(only.stderr).toMatch(/^rebuilt stats from 150 events/);
    expect(walkFiles(h.paths.views, h.paths.claude)).toEqual(before);
    const out = join(h.root, 'replay');
    const replay = await cliHere(['replay', '--until', '40', '--out', out], h.env);
    expect(replay.stderr).toContain('replayed events 1..40 of 150');
    const replayed = walkFiles(join(out, 'views'), join(out, 'claude'));
    expect(Object.keys(replayed).length).toBeGreaterThan(0);
    expect(replayed).not.toEqual(before);
    expect(walkFiles(h.paths.views, h.paths.claude)).toEqual(before);
    expect((await cliHere(['replay', '--until', '40', '--out', out], h.env)).code).toBe(2);
    const byTime = await cliHere(['replay', '--until', '2026-10-01T08:05:00Z', '--out', join(h.root, 'early')], h.env);
    expect(byTime.stderr).toMatch(/replayed events 1\.\.\d+ of 150/);
  });

  it('says plainly what is wrong', async () => {
    const h = seeded();
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('150 hook events wait in the spool');
    expect(doctor.stdout).toContain("engram's hooks are not in");
    await cliHere(['worker', '--drain'], h.env);
    await cliHere(['install'], h.env);
    const healthy = await cliHere(['doctor'], h.env);
    expect(healthy.stdout).toMatch(/all \d+ projections are up to date/);
    expect(healthy.stdout).toContain('hooks are installed in');
    expect(healthy.code).toBe(0);
    // A view someone deleted is not "up to date".
    const trace = join(h.paths.views, 'trace', readdirSync(join(h.paths.views, 'trace'))[0]!);
    rmSync(trace);
    const missing = await cliHere(['doctor'], h.env);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(`✗ 1 file(s) that projection trace wrote are gone (e.g. ${trace}); \`engram rebuild --only trace\` writes them again`);
    expect((await cliHere(['rebuild', '--only', 'trace'], h.env)).code).toBe(0);
    expect(existsSync(trace)).toBe(true);
    expect((await cliHere(['doctor'], h.env)).code).toBe(0);
  });

  it('runs a worker that exits by itself once idle, removing its pid file and socket', async () => {
    // Idle is checked on the worker's 1 s tick: it goes at the first tick past 500 ms.
    const h = tempHome({ ENGRAM_WORKER_IDLE_MS: '500' });
    homes.push(h);
    expect((await cliHere(['worker', '--detach'], h.env)).stdout).toMatch(/^started: pid \d+/);
    let status = '';
    for (let i = 0; i < 100 && !status.startsWith('not running'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await cliHere(['worker', 'status'], h.env)).stdout;
    }
    expect(status).toMatch(/^not running/);
    expect(existsSync(h.paths.pidFile)).toBe(false);
    expect(existsSync(h.paths.socket)).toBe(false);
    expect(readFileSync(h.paths.workerLog, 'utf8')).toContain('stopping: idle');
  });

  it('says a worker that holds the log but does not answer (stopping or starting) is not answering, not "not running"', async () => {
    const h = tempHome();
    homes.push(h);
    // A live process whose command line names the worker, and no socket: a worker closing its log.
    const silent = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'worker'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => silent.once('spawn', resolve));
      mkdirSync(h.paths.home, { recursive: true });
      writeFileSync(h.paths.pidFile, `${silent.pid}\n`);
      expect((await cliHere(['worker', 'status'], h.env)).stdout).toMatch(new RegExp(`^not answering: pid ${silent.pid} holds the log`));
    } finally {
      silent.kill('SIGKILL');
    }
    await new Promise((resolve) => silent.once('exit', resolve));
    expect((await cliHere(['worker', 'status'], h.env)).stdout).toMatch(/^not running/);
  });

  it('rejects unknown commands and missing arguments with exit 2 and a usage line', async () => {
    const h = tempHome();
    homes.push(h);
    // The exit code the bin's process gives a usage error is test/cli-bundle.test.ts's.
    for (const args of [['frobnicate'], ['replay', '--until', '3'], ['log', 'shred']]) {
      const result = await cliHere(args, h.env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^engram: (?!USAGE)/);
    }
  });
});

describe('small things a user meets', () => {
  it('`engram log dump | head -1` exits 0 and prints nothing on stderr, with and without a worker', async () => {
    const h = seeded(20, 100);
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    // The shell's pipeline itself, so the reader really goes away after one line.
    const pipeline = () =>
      new Promise<{ status: string; stderr: string }>((resolve, reject) => {
        const errFile = join(h.root, `dump-${Date.now()}.err`);
        const command = `"${process.execPath}" "${cliPath}" log dump 2>"${errFile}" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
        const shell = spawn('bash', ['-c', command], { env: h.env, stdio: ['ignore', 'pipe', 'inherit'] });
        let stdout = '';
        shell.stdout.on('data', (chunk) => (stdout += chunk));
        shell.on('error', reject);
        shell.on('close', () => resolve({ status: stdout.trim(), stderr: readFileSync(errFile, 'utf8') }));
      });
    expect(await pipeline()).toEqual({ status: '0', stderr: '' });
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    expect(await pipeline()).toEqual({ status: '0', stderr: '' });
  });

  it('replay --out resolves a relative directory where the user runs it, not where the worker runs', async () => {
    const h = seeded();
    const workerCwd = join(h.root, 'worker-cwd');
    const userCwd = join(h.root, 'user-cwd');
    mkdirSync(workerCwd);
    mkdirSync(userCwd);
    expect((await cliHere(['worker', '--drain'], h.env, { cwd: workerCwd })).code).toBe(0);
    // The worker's process starts where `worker --detach` is run; the command is run from elsewhere.
    expect((await runCliIn(workerCwd, ['worker', '--detach'], h.env)).code).toBe(0);
    const replay = await cliHere(['replay', '--until', '40', '--out', 'then'], h.env, { cwd: userCwd });
    expect(replay.code).toBe(0);
    expect(replay.stderr).toContain(`into ${join(userCwd, 'then')}`);
    expect(readdirSync(join(userCwd, 'then')).sort()).toEqual(['claude', 'state', 'views']);
    expect(readdirSync(workerCwd)).toEqual([]);
  });

  it('replay --until takes a seq or a full ISO time and nothing else: " 50", "50.5", "-5" or a date alone are usage errors', async () => {
    const h = seeded();
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    for (const until of [' 50', '50.5', '-5', '1e3', '2026-10-01', '2026-10-01T08:05:00', 'yesterday']) {
      const result = await cliHere(['replay', `--until=${until}`, '--out', join(h.root, 'out')], h.env);
      expect(result.code, JSON.stringify(until)).toBe(2);
      expect(result.stderr).toContain('engram: --until takes a seq (digits, e.g. 40) or an ISO 8601 time with a zone');
      expect(existsSync(join(h.root, 'out'))).toBe(false);
    }
    for (const [until, expected] of [['040', 'replayed events 1..40 of 150'], ['2026-10-01T08:05:00+00:00', 'replayed events 1..']] as const) {
      const result = await cliHere(['replay', `--until=${until}`, '--out', join(h.root, `ok-${until}`)], h.env);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(expected);
    }
  });
});

describe('memory directories people already use', () => {
  it('keeps every existing line of MEMORY.md and never overwrites a memory file engram did not write', async () => {
    const h = tempHome();
    homes.push(h);
    const memory = join(h.paths.claude, 'projects', '-home-dev-src-app', 'memory');
    mkdirSync(memory, { recursive: true });
    const index = '# Memory\n\n- [prefs.md](prefs.md) — how I like reviews\nfree text the user wrote\n';
    writeFileSync(join(memory, 'MEMORY.md'), index);
    writeFileSync(join(memory, 'prefs.md'), 'small PRs please\n');
    writeFileSync(join(memory, 'auto-errors.md'), 'my own notes about errors\n');
    await runHookHere('UserPromptSubmit', { session_id: 's', cwd: '/home/dev/src/app', prompt: 'hello there' }, h.env);
    await cliHere(['worker', '--drain'], h.env);
    const after = readFileSync(join(memory, 'MEMORY.md'), 'utf8');
    expect(after.startsWith(index)).toBe(true);
    // engram's own files are linked; the user's auto-errors.md is not claimed as engram's.
    const added = after.slice(index.length).split('\n').filter(Boolean);
    expect(added.map((line) => /^- \[([^\]]+)\]/.exec(line)?.[1])).toEqual(['auto-stats.md', 'auto-tool-usage.md']);
    expect(readFileSync(join(memory, 'prefs.md'), 'utf8')).toBe('small PRs please\n');
    expect(readFileSync(join(memory, 'auto-errors.md'), 'utf8')).toBe('my own notes about errors\n');
    expect(readFileSync(join(memory, 'auto-stats.md'), 'utf8')).toContain('| prompts | 1 |');
    expect((await cliHere(['doctor'], h.env)).stdout).toContain('auto-errors.md was not written by engram');
    // A rebuild appends nothing (reactors do not run) and changes none of it.
    const head = JSON.parse((await cliHere(['log', 'stats', '--json'], h.env)).stdout).head;
    await cliHere(['rebuild'], h.env);
    expect(JSON.parse((await cliHere(['log', 'stats', '--json'], h.env)).stdout).head).toBe(head);
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toBe(after);
    expect(readFileSync(join(memory, 'auto-errors.md'), 'utf8')).toBe('my own notes about errors\n');
  });
});

describe('commands that only read', () => {
  it('change nothing, not even after a projectorVersion changed; only the worker rebuilds', async () => {
    const h = seeded();
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    // As if this build's sessions projector were newer than what its checkpoint was made by.
    const db = new Level<string, Buffer>(h.paths.state, { valueEncoding: 'buffer' });
    await db.open();
    const packr = new Packr({ structuredClone: true });
    const checkpoint = packr.unpack((await db.get('!p.sessions.0!c'))!) as { projectorVersion: number };
    await db.put('!p.sessions.0!c', packr.pack({ ...checkpoint, projectorVersion: checkpoint.projectorVersion - 1 }));
    await db.close();
    const views = walkFiles(h.paths.views);
    for (const args of [['log', 'dump'], ['log', 'stats'], ['worker', 'status'], ['doctor']]) {
      await cliHere(args, h.env);
      expect(walkFiles(h.paths.views), args.join(' ')).toEqual(views);
    }
    expect((await cliHere(['doctor'], h.env)).stdout).toContain('projection sessions must be rebuilt from the log because its projectorVersion changed');
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    expect(walkFiles(h.paths.views)).toEqual(views);
    expect((await cliHere(['doctor'], h.env)).stdout).toMatch(/projection sessions was rebuilt from the log at .* because its projectorVersion changed/);
  });

  it('create nothing in a home that has no log yet', async () => {
    const h = tempHome();
    homes.push(h);
    for (const args of [['log', 'dump'], ['log', 'stats', '--json'], ['worker', 'status'], ['migrate', '--dry-run']]) {
      const result = await cliHere(args, h.env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect(existsSync(h.paths.log)).toBe(false);
    expect(existsSync(h.paths.state)).toBe(false);
  });
});

describe('a projection whose checkpoint cannot be read', () => {
  it('rebuilds alone while the worker, drains and rebuilds go on, and doctor says so', async () => {
    const h = seeded();
    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    const views = walkFiles(h.paths.views);
    const db = new Level<string, Buffer>(h.paths.state, { valueEncoding: 'buffer' });
    await db.open();
    await db.put('!p.trace.0!c', Buffer.from('torn'));
    await db.close();
    const drained = await cliHere(['worker', '--drain'], h.env);
    expect(drained.code, drained.stderr).toBe(0);
    expect(walkFiles(h.paths.views)).toEqual(views);
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.stdout).toMatch(/✓ projection trace was rebuilt from the log at .* because its checkpoint could not be read/);
    expect(doctor.stdout).not.toMatch(/projection (sessions|stats|counts) was rebuilt/);
    expect((await cliHere(['rebuild'], h.env)).code).toBe(0);
  });
});
