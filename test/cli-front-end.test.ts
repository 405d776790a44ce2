import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentBuild } from './support/older-build.js';
import { runHookHere } from './support/hook-here.js';
import { cliHere, repoRoot, runProcess, useTempHomes, type TempHome } from './support/temp-home.js';

// The bin's front end (src/cli/answer-from-worker.ts) answers `engram log stats|verify|dump`
// from a running worker without loading the full CLI. Each case runs both paths against the
// same worker: the bundled bin, and the tsc build's main.js (the full CLI, which asks the worker
// through worker-client.ts). They must print the same bytes and exit the same way. The full CLI
// runs in this process (cliHere: its main, output and exit code as the bin gives them), the bin
// and the front end alone as processes: the front end's process is what is under test.
const bin = join(repoRoot, JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).bin.engram as string);
const home = useTempHomes({ inMemory: true });
const COMMANDS = [['log', 'stats'], ['log', 'stats', '--json'], ['log', 'verify'], ['log', 'verify', '--json'], ['log', 'dump']];

/** The front end's file alone in a directory: what it answers there, it answered loading nothing of the full CLI. */
function frontEndAlone(h: TempHome): string {
  const dir = join(h.root, 'alone');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  copyFileSync(bin, join(dir, 'engram.js'));
  return join(dir, 'engram.js');
}

async function until(what: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await what()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('gave up waiting');
}

describe('the bin answered by the running worker', () => {
  it('prints the same bytes and exits the same as the full CLI, loading nothing beside itself', async () => {
    const h = home();
    for (let i = 0; i < 3; i++) await runHookHere('UserPromptSubmit', { session_id: `s${i}`, cwd: '/home/dev/src/app', prompt: `question ${i} ✓` }, h.env);
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    await until(async () => JSON.parse((await cliHere(['log', 'stats', '--json'], h.env)).stdout).spool.pending === 0);
    const alone = frontEndAlone(h);
    for (const argv of COMMANDS) {
      const full = await cliHere(argv, h.env);
      expect(full.code, argv.join(' ')).toBe(0);
      expect(await runProcess([alone, ...argv], h.env), argv.join(' ')).toEqual(full);
      expect(await runProcess([bin, ...argv], h.env), argv.join(' ')).toEqual(full);
    }
    expect((await cliHere(['log', 'dump'], h.env)).stdout.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(3);
  }, 240_000);

  it('leaves to the full CLI a home with config.json, and an argument it does not know', async () => {
    const h = home();
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    const alone = frontEndAlone(h);
    writeFileSync(h.paths.config, '{"recallLimit": ');
    const broken = await cliHere(['log', 'stats'], h.env);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('config.json is not JSON');
    expect(await runProcess([bin, 'log', 'stats'], h.env)).toEqual(broken);
    // Alone, it cannot load the full CLI: the proof that it did not answer this itself.
    expect((await runProcess([alone, 'log', 'stats'], h.env)).stderr).toContain('engram-main.js');
    writeFileSync(h.paths.config, '{}\n');
    expect(await runProcess([bin, 'log', 'stats'], h.env)).toEqual(await cliHere(['log', 'stats'], h.env));
    const usage = await runProcess([bin, 'log', 'stats', '--json', '--bogus'], h.env);
    expect(usage).toEqual(await cliHere(['log', 'stats', '--json', '--bogus'], h.env));
    expect(usage.code).toBe(2);
  }, 120_000);
});

// A worker that answers what it is told to (its lines are in a file the test rewrites): how each
// path takes an answer out of protocol. Its argv says `worker`, which is what live-worker.ts asks.
const FAKE_WORKER = `
const { createServer } = require('node:net');
const { appendFileSync, readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const [, , , socket, pidFile, build, answers, requests] = process.argv;
const server = createServer((conn) => {
  let got = '';
  conn.on('data', (chunk) => {
    got += chunk;
    if (!got.includes('\\n')) return;
    appendFileSync(requests, got);
    const lines = JSON.parse(readFileSync(answers, 'utf8'));
    conn.end(lines.join(''));
  });
});
server.listen(socket, () => writeFileSync(pidFile, process.pid + '\\n' + build + '\\n'));
`;

describe('the bin and a worker out of protocol', () => {
  let fake: ChildProcess | undefined;
  afterEach(() => {
    fake?.kill('SIGKILL');
    fake = undefined;
  });

  it('fails, or ignores, exactly as the full CLI does, having asked the same', async () => {
    const h = home();
    mkdirSync(h.paths.home, { recursive: true, mode: 0o700 });
    const script = join(h.root, 'fake-worker.cjs');
    const answers = join(h.root, 'answers.json');
    const requests = join(h.root, 'requests.ndjson');
    writeFileSync(script, FAKE_WORKER);
    writeFileSync(answers, '[]');
    fake = spawn(process.execPath, [script, 'worker', h.paths.socket, h.paths.pidFile, currentBuild(), answers, requests], { stdio: 'ignore' });
    await until(async () => existsSync(h.paths.pidFile));
    const cases: Array<[string, string[]]> = [
      ['not JSON', ['{"t":"out","text":"a"}\n', 'not json\n', '{"t":"exit","code":0}\n']],
      ['a message of the wrong shape', ['{"t":"out"}\n', '{"t":"exit","code":0}\n']],
      ['an exit code that is not whole', ['{"t":"out","text":"x\\n"}\n', '{"t":"exit","code":1.5}\n']],
      ['another op\'s answer, then the command\'s', ['{"t":"pong","pid":1,"head":2,"startedAt":"x"}\n', '{"t":"out","text":"fine\\n"}\n', '{"t":"exit","code":3}\n']],
      ['an error line and a progress line', ['{"t":"progress","done":1,"total":2}\n', '{"t":"err","text":"warned\\n"}\n', '{"t":"exit","code":0}\n']],
      ['no exit', ['{"t":"out","text":"half"}\n']],
      ['text beyond ASCII', ['{"t":"out","text":"é€"}\n', '{"t":"exit","code":0}\n']],
    ];
    for (const [what, lines] of cases) {
      writeFileSync(answers, JSON.stringify(lines));
      for (const argv of [['log', 'stats', '--json'], ['log', 'dump']]) {
        writeFileSync(requests, '');
        const full = await cliHere(argv, h.env);
        const fullAsked = readFileSync(requests, 'utf8');
        writeFileSync(requests, '');
        expect(await runProcess([bin, ...argv], h.env), `${what}: ${argv.join(' ')}`).toEqual(full);
        expect(readFileSync(requests, 'utf8'), what).toBe(fullAsked);
      }
    }
    writeFileSync(answers, JSON.stringify(['not json\n', '{"t":"exit","code":0}\n']));
    const failed = await runProcess([bin, 'log', 'stats'], h.env);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed.stderr).toBe('engram: the worker answered something unexpected: a line of 8 characters is not JSON\n');
  }, 240_000);
});
