import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMemoryDir, projectSlug } from '../src/paths.js';
import { cliHere, cliPath, drain, dumpLog, runHook, tempHome, type TempHome } from './support/temp-home.js';

/**
 * The one door for redaction (DESIGN.md invariant 3), through real processes: whatever way text
 * enters the log — MCP `remember`, `import`, a file adopted from disk, a distiller's route,
 * `backfill`, a bad hook payload — no secret reaches the log, the memory files, MEMORY.md, the
 * indexes or any other file engram writes, nor an error message.
 */
const PG_PASSWORD = 's3cr3t-Pg-99';
const PG = `postgres://admin:${PG_PASSWORD}@db:5432/x`;
const AKIA = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const STRIPE = 'sk_live_FAKE51HqLyjWDarjtT1zdp7dcEXAMPLE00';
const GHP = 'ghp_aB3dE5fGhIjKlMnOpQrStUvWxYz0123456789';
const ADOPTED = 'rk_live_FAKE77HqLyjWDarjtT1zdp7dcEXAMPLE11';
const ROUTED = 'xoxb-1234567890123-1234567890123-FAKEaBcDeFgHiJkLmNoPqRsT';
const BACKFILLED = 'glpat-FAKEx8Zr2Lm5Tn9Xv1KpQ';
const SECRETS = [PG_PASSWORD, AKIA, AWS_SECRET, STRIPE, GHP, ADOPTED, ROUTED, BACKFILLED];

const NOW = '2026-11-10T10:00:00.000Z';
let h: TempHome;
let project: string;

/** Every file engram wrote under its home and Claude's directory, and the log, as one text. */
async function everything(): Promise<string> {
  const files = Object.entries(walkFiles(h.paths.home, h.paths.claude))
    // Claude Code's own transcripts are the input of backfill, not engram's output.
    .filter(([path]) => !path.endsWith('.jsonl') || !path.includes(`${projectSlug(project)}/`) || path.includes('/memory/'))
    .map(([path, text]) => `${path}\n${text}`);
  return [...files, JSON.stringify(await dumpLog(h.env))].join('\n');
}

/** Every regular file under these directories (the worker's socket is none), by path. */
function walkFiles(...roots: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (dir: string) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) visit(path);
      else if (stat.isFile()) files[path] = readFileSync(path, 'utf8');
    }
  };
  roots.forEach(visit);
  return files;
}

function expectNone(text: string, secrets: readonly string[], where: string): void {
  for (const secret of secrets) expect(text.includes(secret), `${where}: ${secret}`).toBe(false);
}

beforeAll(() => {
  h = tempHome({ ENGRAM_NOW: NOW, ENGRAM_WORKER_AUTOSTART: '1' });
  project = join(h.root, 'shop');
  mkdirSync(project, { recursive: true });
});
afterAll(async () => {
  await h?.cleanup();
});

describe('the one door for redaction, end to end', () => {
  it('MCP remember: neither the database URL\'s password nor the AWS key pair reaches the log, the memory file or MEMORY.md', async () => {
    // Started first and waited for: on a loaded machine a worker's first start can outlast the
    // MCP server's wait for it. Asked from this process: the worker is a detached process either way.
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp', '--project', project], env: h.env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'engram-test', version: '1' });
    await client.connect(transport);
    try {
      const result = (await client.callTool({
        name: 'remember',
        arguments: { text: `The staging database is ${PG}; deploys use key id ${AKIA}, secret ${AWS_SECRET}.`, type: 'reference' },
      })) as { content: Array<{ text?: string }>; isError?: boolean };
      const said = result.content.map((c) => c.text ?? '').join('');
      expect(result.isError, said).not.toBe(true);
      expectNone(said, [PG_PASSWORD, AKIA, AWS_SECRET], 'the answer');
      expect(said).toContain('[REDACTED:');
    } finally {
      await client.close();
    }
    await drain(h.env);
    const dir = join(h.paths.claude, projectMemoryDir(project));
    const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    const files = walkFiles(dir);
    expect(Object.keys(files).length).toBeGreaterThan(1);
    expectNone(index, [PG_PASSWORD, AKIA, AWS_SECRET], 'MEMORY.md');
    expectNone(Object.values(files).join('\n'), [PG_PASSWORD, AKIA, AWS_SECRET], 'memory files');
    expect(Object.values(files).join('\n')).toContain('postgres://admin:[REDACTED:url-credentials]@db:5432/x');
    expectNone(await everything(), [PG_PASSWORD, AKIA, AWS_SECRET], 'everything');
  }, 240_000);

  it('import: a hand-written memory file holding a Stripe key is stored redacted', async () => {
    const source = join(h.root, 'old-memories');
    mkdirSync(source);
    writeFileSync(join(source, 'billing.md'), `---\nname: Billing keys\ndescription: where billing is configured\ntype: reference\n---\nThe live key is ${STRIPE} (rotate yearly).\n`);
    const imported = await cliHere(['import', source, '--project', project], h.env);
    expect(imported.code, imported.stderr).toBe(0);
    expectNone(imported.stdout + imported.stderr, [STRIPE], 'import output');
    await drain(h.env);
    const log = JSON.stringify(await dumpLog(h.env));
    expect(log).toContain('The live key is [REDACTED:stripe-key] (rotate yearly).');
    expectNone(await everything(), [STRIPE], 'everything');
  }, 240_000);

  it('a file adopted from disk: its secret stays out of the log and MEMORY.md', async () => {
    const dir = join(h.paths.claude, projectMemoryDir(project));
    writeFileSync(join(dir, 'payments.md'), `---\nname: Payments sandbox\ndescription: the restricted key for the sandbox\ntype: reference\n---\nrestricted key ${ADOPTED}\n`);
    const reconciled = await cliHere(['reconcile'], h.env);
    expect(reconciled.code, reconciled.stderr).toBe(0);
    await drain(h.env);
    const log = await dumpLog(h.env);
    const adopted = log.find((event) => event.type === 'MemoryProposed' && event.data.fileName === 'payments.md');
    expect(adopted?.data.body).toBe('restricted key [REDACTED:stripe-key]\n');
    expectNone(JSON.stringify(log), [ADOPTED], 'the log');
    expectNone(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), [ADOPTED], 'MEMORY.md');
    // The memory file itself is the user's: what engram does with their bytes is the ownership
    // module's call; nothing else engram wrote holds the key.
    const written = Object.entries(walkFiles(h.paths.home, h.paths.claude)).filter(([path]) => !path.endsWith('payments.md'));
    expectNone(written.map(([, text]) => text).join('\n'), [ADOPTED], 'other files');
  }, 240_000);

  it('routes: a distilled proposal holding a token is listed and written to CLAUDE.md redacted', async () => {
    const answer = {
      episode: { name: 'Wired the Slack alerts', description: 'alerts to Slack', body: 'Wired it.' },
      candidates: [
        { type: 'project', name: 'Slack alerts bot', description: 'alerts post as the bot', body: `Alerts post with the bot token ${ROUTED}.`, destination: 'claude_md' },
      ],
    };
    mkdirSync(h.paths.spoolNew, { recursive: true });
    // Written aside and renamed in, as a hook does: the worker started by the first test watches
    // spool/new and would take a file still being written as an empty one.
    const seeded = join(h.root, 'seed.json');
    writeFileSync(seeded, JSON.stringify({
      id: 'seed-distilled-000001', type: 'DistillCompleted', schemaVersion: 1, ts: NOW, session: 's-alerts', project,
      data: { upToSeq: 1, attempt: 1, via: 'llm', raw: JSON.stringify(answer), answer, notes: [] },
    }));
    renameSync(seeded, join(h.paths.spoolNew, '1700000000000000-1-00000001.json'));
    await drain(h.env);
    const listed = await cliHere(['routes', '--project', project, '--json'], h.env);
    expect(listed.code, listed.stderr).toBe(0);
    expectNone(listed.stdout, [ROUTED], 'routes');
    // Accepted by the id shown, which names the exact text written (issue 18, item 6).
    const [route] = JSON.parse(listed.stdout) as Array<{ acceptId: string }>;
    const accepted = await cliHere(['routes', 'accept', route!.acceptId], h.env);
    expect(accepted.code, accepted.stderr).toBe(0);
    const claudeMd = readFileSync(join(project, 'CLAUDE.md'), 'utf8');
    expect(claudeMd).toContain('[REDACTED:slack-token]');
    expectNone(claudeMd, [ROUTED], 'CLAUDE.md');
    expectNone(await everything(), [ROUTED], 'everything');
  }, 240_000);

  it('backfill: a transcript holding a token is adopted redacted', async () => {
    const session = '11111111-2222-4333-8444-555555555555';
    const dir = join(h.paths.claude, 'projects', projectSlug(project));
    mkdirSync(dir, { recursive: true });
    const line = (i: number, content: string) =>
      JSON.stringify({ type: 'user', uuid: `u-${i}`, parentUuid: null, sessionId: session, timestamp: `2026-11-01T09:00:0${i}.000Z`, cwd: project, message: { role: 'user', content } });
    writeFileSync(join(dir, `${session}.jsonl`), `${[line(1, `the gitlab token is ${BACKFILLED}, keep it`), line(2, 'now run the tests')].join('\n')}\n`);
    const backfilled = await cliHere(['backfill', '--no-distill'], h.env);
    expect(backfilled.code, backfilled.stderr).toBe(0);
    await drain(h.env);
    const log = await dumpLog(h.env);
    expect(log.filter((event) => event.session === session && event.type === 'PromptSubmitted')).toHaveLength(2);
    expectNone(await everything(), [BACKFILLED], 'everything');
  }, 240_000);

  it('a hook payload that is not JSON: neither hooks.log nor HookInputRejected quotes any of it', async () => {
    const stdin = `${GHP} is my token`;
    const result = await runHook('UserPromptSubmit', stdin, h.env);
    expect(result.code).toBe(0);
    await drain(h.env);
    const rejected = (await dumpLog(h.env)).filter((event) => event.type === 'HookInputRejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.data.reason).toMatch(/^stdin is not JSON: an unexpected character/);
    const hooksLog = existsSync(h.paths.hooksLog) ? readFileSync(h.paths.hooksLog, 'utf8') : '';
    expect(hooksLog).toContain('stdin is not JSON');
    for (const piece of ['ghp_', 'aB3dE5', "'g'", 'is my token']) {
      expect(JSON.stringify(rejected), piece).not.toContain(piece);
      expect(hooksLog, piece).not.toContain(piece);
    }
    expectNone(await everything(), SECRETS, 'everything, at the end');
  }, 240_000);
});
