import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main, usageOf } from '../src/cli/main.js';
import { formatScore } from '../src/cli/query-cli.js';
import { describeForUser, EngramError, isEngramError } from '../src/errors.js';
import { useTempHomes } from './support/temp-home.js';

const home = useTempHomes();

/** main() in this process, its output collected: the process boundary is not what these test. */
async function engram(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const stream = (add: (text: string) => void) => new Writable({ write: (chunk, _enc, done) => (add(chunk.toString()), done()) });
  const terminal = { stdout: stream((t) => (stdout += t)), stderr: stream((t) => (stderr += t)) };
  try {
    const code = await main(args, env, terminal);
    return { code, stdout, stderr };
  } catch (err) {
    // As the bin says it (main.ts): what failed, exit 2 for a usage mistake, else 1.
    return { code: isEngramError(err, 'USAGE') ? 2 : 1, stdout, stderr: `${stderr}engram: ${describeForUser(err)}\n` };
  }
}

const COMMANDS = ['install', 'uninstall', 'worker', 'log', 'rebuild', 'replay', 'migrate', 'maintain', 'import', 'reconcile', 'memories', 'distill', 'backfill', 'graph', 'routes', 'skills', 'query', 'mcp', 'ui', 'config', 'sync', 'doctor'];

describe('CLI habits', () => {
  it('every command has --help: its own usage lines, exit 0', async () => {
    const h = home();
    for (const command of COMMANDS) {
      const result = await engram([command, '--help'], h.env);
      expect(result.code, command).toBe(0);
      expect(result.stdout, command).toContain(`engram ${command}`);
      expect(result.stdout.length, command).toBeLessThan(1200);
    }
  });

  it('a flag a command does not take is a usage mistake: exit 2, the command\'s usage, not parseArgs\' advice', async () => {
    const h = home();
    const result = await engram(['log', 'stats', '--bogus'], h.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`engram: Unknown option '--bogus'\nusage:\n${usageOf('log')}\n`);
    expect(result.stderr).not.toContain('To specify a positional argument');
    const missing = await engram(['distill', '--session'], h.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('engram distill --session ID');
  });

  it('errors say what failed without their code; only usage mistakes exit 2', () => {
    expect(describeForUser(new EngramError('LOG_LOCKED', 'the log is held by pid 7'))).toBe('the log is held by pid 7');
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, realpath '/nope'"), { code: 'ENOENT' });
    expect(describeForUser(new EngramError('MEMORY_DIR_UNREADABLE', 'cannot read memory directory /nope', { cause: enoent }))).toBe("cannot read memory directory /nope (ENOENT: no such file or directory, realpath '/nope')");
    // A message that quotes its cause already does not say it twice.
    expect(describeForUser(new EngramError('MEMORY_DIR_UNREADABLE', `cannot read /nope: ${enoent.message}`, { cause: enoent }))).toBe(`cannot read /nope: ${enoent.message}`);
  });

  it('`skills accept --skill a/b` says what is wrong in words, not as a schema\'s issue list', async () => {
    const h = home();
    const result = await engram(['skills', 'accept', 'anything', '--skill', 'a/b'], h.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('engram: --skill: a skill name, not a path\n');
  });

  it('`worker status` is a readable summary; --json is the facts alone', async () => {
    const h = home();
    const text = await engram(['worker', 'status'], h.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^not running\nlog: 0 events\nspool: 0 waiting, 0 being written, 0 rejected\nprojections: (\d+) of \1 up to date\n/);
    expect(text.stdout.split('\n').length).toBeLessThan(10);
    const json = await engram(['worker', 'status', '--json'], h.env);
    expect(JSON.parse(json.stdout)).toMatchObject({ head: 0, spool: { pending: 0 } });
  });

  it('`replay --out` into a directory whose parent does not exist is an error and creates nothing; --until past the head says so', async () => {
    const h = home();
    const nowhere = join(mkdtempSync(join(tmpdir(), 'engram-replay-')), 'missing', 'dir', 'x');
    const result = await engram(['replay', '--until', '5', '--out', nowhere], h.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not exist; --out names a new or empty directory in an existing one');
    expect(existsSync(join(nowhere, '..', '..'))).toBe(false);
    const past = await engram(['replay', '--until', '999999', '--out', join(h.root, 'replayed')], h.env);
    expect(past.code, past.stderr).toBe(0);
    expect(past.stderr).toContain('the log ends at event 0, before 999999: replaying all of it');
  });
});

describe('CLI habits: tables', () => {
  const project = '/home/dev/src/payments';
  const long = 'Run the payments integration tests against the sandbox gateway, never production';
  /** A home with two memories of one project, one pinned, projected. */
  async function seeded() {
    const h = home();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    const proposed = (i: number, memoryId: string, name: string, more: object = {}) => writeFileSync(join(h.paths.spoolNew, `${1_700_000_000_000_000 + i}-1-0000000${i}.json`), JSON.stringify({
      id: `seed-memory-${i}-000000`, type: 'MemoryProposed', schemaVersion: 1, ts: `2026-11-0${i + 1}T10:00:00.000Z`, session: '', project,
      data: { memoryId, origin: 'user', scope: 'project', name, description: name, type: 'project', body: `${name}\n`, status: 'active', confidence: 0.9, ...more },
    }));
    proposed(1, 'long', long);
    proposed(2, 'vacuum', 'Postgres vacuum schedule after bulk imports of settlements', { pinned: true });
    expect((await engram(['worker', '--drain'], h.env)).code).toBe(0);
    return h;
  }

  it('`memories list` has a header, whole names, says what * means, and from elsewhere names the projects that have memories', async () => {
    const h = await seeded();
    const list = await engram(['memories', 'list', '--project', project], h.env);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +TYPE +STATUS +STRENGTH +FILE$/);
    expect(list.stdout).toContain(long);
    expect(lines.some((l) => /^Postgres vacuum schedule .* active\* /.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('* pinned: kept, whatever its strength, until unpinned');
    const elsewhere = await engram(['memories', 'list', '--project', '/home/dev/src/other'], h.env);
    expect(elsewhere.stdout).toBe(`no memories for /home/dev/src/other yet; 1 other project(s) have some:\n  ${project} (2)\n\`engram memories list --project PATH\` or \`--all\` lists them\n`);
  });

  it('`query` prints scores that tell memories apart, under a header; `--project` that does not exist is an error', async () => {
    expect(formatScore(0.016393)).toBe('0.0164');
    expect(formatScore(0.0000412)).toBe('0.0000412');
    expect(formatScore(0)).toBe('0');
    const h = await seeded();
    const missing = await engram(['query', 'vacuum schedule after bulk imports', '--project', '/nonexistent/project'], h.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('engram: --project /nonexistent/project: no such directory, and no memories of a project there; name the directory the project is in\n');
    // A project engram has memories of is asked about even where its directory is gone.
    expect((await engram(['query', 'vacuum schedule after bulk imports', '--project', project], h.env)).code).toBe(0);
  });

  it('`maintain --dry-run` says what the run would record and records nothing; the run never says "nothing" beside events it records', async () => {
    const h = await seeded();
    const now = '2026-11-20T00:00:00.000Z';
    const head = async () => Number(/"head":\s*(\d+)/.exec((await engram(['worker', 'status', '--json'], h.env)).stdout)![1]);
    const before = await head();
    const dry = await engram(['maintain', '--dry-run', '--now', now], h.env);
    expect(dry.code, dry.stderr).toBe(0);
    const would = Number(/would record (\d+) events; recorded none \(--dry-run\)\n$/.exec(dry.stdout)?.[1]);
    expect(would).toBeGreaterThan(0);
    expect(await head()).toBe(before);
    const run = await engram(['maintain', '--now', now], h.env);
    expect(run.stdout).not.toContain('change nothing');
    expect(run.stdout).toContain(`: ${would} events recorded`);
    expect(await head()).toBe(before + would);
  });
});
