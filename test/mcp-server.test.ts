import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMemoryDir } from '../src/paths.js';
import { cliHere, cliPath, drain, tempHome, type TempHome } from './support/temp-home.js';

const project = '/home/dev/src/shop';
const NOW = '2026-11-10T00:00:00.000Z';

const memories: Array<[id: string, name: string, description: string, body: string]> = [
  ['m1', 'Use pnpm', 'use pnpm, not npm', 'install packages with pnpm; npm breaks the workspace lockfile'],
  ['m2', 'Money in cents', 'amounts are integer cents', 'prices and amounts are stored as integer cents, never floats'],
  ['m3', 'Lockfile in CI', 'CI installs from the frozen lockfile', 'the CI pipeline runs pnpm install --frozen-lockfile; a changed lockfile fails the build'],
  ['m4', 'Workspace layout', 'the pnpm workspace holds api and web', 'the pnpm workspace holds packages/api and packages/web; run pnpm install at the root only'],
  ['m5', 'Node version', 'Node 20 with corepack', 'Node 20; corepack enables pnpm, so no global install of pnpm is needed'],
];

/** A home with three memories and two sessions recorded and projected, and no worker running. */
async function seeded(): Promise<TempHome> {
  // The MCP server starts the worker when it needs one, as the hooks do.
  const h = tempHome({ ENGRAM_NOW: NOW, ENGRAM_WORKER_AUTOSTART: '1' });
  mkdirSync(h.paths.spoolNew, { recursive: true });
  const events: unknown[] = memories.map(([memoryId, name, description, body], i) => ({
    id: `seed-memory-${i}-000000`, type: 'MemoryProposed', schemaVersion: 1, ts: `2026-11-0${i + 1}T10:00:00.000Z`, session: '', project,
    data: { memoryId, origin: 'user', scope: 'project', name, description, type: 'feedback', body: `${body}\n`, status: 'active', confidence: 0.9 },
  }));
  const session = (id: string, day: string, tools: number) => [
    { type: 'SessionStarted', data: { source: 'startup' } },
    { type: 'PromptSubmitted', data: { prompt: 'fix the checkout total', chars: 22, truncated: false } },
    ...Array.from({ length: tools }, (_, k) => ({ type: 'ToolCalled', data: { tool: 'Bash', input: `pnpm test ${k}`, ok: true } })),
    { type: 'SessionEnded', data: { reason: 'other' } },
  ].map((e, k) => ({ ...e, id: `seed-${id}-${String(k).padStart(6, '0')}`, schemaVersion: e.type === 'PromptSubmitted' ? 2 : 1, ts: `${day}T09:00:${String(k).padStart(2, '0')}.000Z`, session: id, project }));
  events.push(...session('sess-old', '2026-11-03', 2), ...session('sess-new', '2026-11-08', 4));
  events.forEach((event, i) => writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + i)}-1-${String(i).padStart(8, '0')}.json`), JSON.stringify(event)));
  await drain(h.env);
  return h;
}

async function connect(h: TempHome): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp', '--project', project], env: h.env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'engram-test', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

/** The files a process holds open. */
function openFiles(pid: number): string[] {
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const text = (result: unknown) => (result as ToolResult).content.map((c) => c.text ?? '').join('');
const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  return { error: result.isError === true, text: text(result), json: () => JSON.parse(text(result)) };
};

// One home and one server for the file (each costs a drain and a worker's start): the tests run in order.
describe('engram mcp', () => {
  let h: TempHome;
  let client: Client;
  let serverPid: number;
  beforeAll(async () => {
    h = await seeded();
    expect((await cliHere(['worker', 'status'], h.env)).stdout).toContain('not running');
    ({ client, pid: serverPid } = await connect(h));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await h?.cleanup();
  });

  it('serves every tool over stdio through a worker it starts on demand, and the memory files as resources', async () => {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['forget', 'get_memory', 'remember', 'search_memories', 'timeline']);

    // Recall's ranking itself: the same as `engram query --all --json` for the same text.
    const question = 'install pnpm packages workspace lockfile';
    const searched = await call(client, 'search_memories', { query: question, limit: 5 });
    expect(searched.error, searched.text).toBe(false);
    const found = searched.json().memories as Array<Record<string, unknown>>;
    const query = await cliHere(['query', question, '--project', project, '--all', '--limit', '5', '--json'], h.env);
    const expected = JSON.parse(query.stdout) as Array<{ name: string; file: string; signals: string[]; score: number }>;
    expect(expected.length, query.stdout).toBeGreaterThan(1);
    expect(found.map((m) => [m.name, m.file, m.signals])).toEqual(expected.map((m) => [m.name, m.file, m.signals]));
    expect(found[0]).toMatchObject({ type: 'feedback', status: 'active', body: expect.any(String), strength: expect.any(Number) });
    expect((await cliHere(['worker', 'status'], h.env)).stdout).toContain('running: pid');

    const got = await call(client, 'get_memory', { name: 'Use pnpm' });
    expect(got.json().memory).toMatchObject({ id: 'm1', name: 'Use pnpm', status: 'active', file: join(h.paths.claude, projectMemoryDir(project), 'use-pnpm.md') });
    expect(got.json().provenance.steps).toEqual([expect.objectContaining({ seq: 1, type: 'MemoryProposed', action: 'created', by: 'user', data: expect.objectContaining({ name: 'Use pnpm' }) })]);
    expect((await call(client, 'get_memory', { file: join(h.paths.claude, projectMemoryDir(project), 'money-in-cents.md') })).json().memory.name).toBe('Money in cents');

    // Asked to keep: active. Sent twice: stored once. Inferred: provisional. Said again: the old one reinforced.
    const kept = await call(client, 'remember', { text: 'Run the linter before every commit' });
    expect(kept.json()).toMatchObject({ outcome: 'created', memory: { status: 'active', type: 'feedback', project, body: 'Run the linter before every commit\n' } });
    expect((await call(client, 'remember', { text: 'Run the linter before every commit' })).json().outcome).toBe('already recorded');
    expect((await call(client, 'remember', { text: 'The user seems to prefer small pull requests', type: 'user', inferred: true })).json().memory).toMatchObject({ status: 'provisional', type: 'user' });
    const again = await call(client, 'remember', { text: 'use pnpm, not npm' });
    expect(again.json()).toMatchObject({ outcome: 'reinforced', memory: { id: 'm1', reinforced: 1 } });
    expect((await call(client, 'get_memory', { name: 'use pnpm' })).json().provenance.steps.map((s: { action: string; by: string }) => [s.action, s.by])).toEqual([['created', 'user'], ['reinforced', 'agent']]);
    const global = await call(client, 'remember', { text: 'The user writes commit messages in English', type: 'user', project: 'global' });
    expect(global.json().memory).toMatchObject({ project: '', file: expect.stringContaining('/engram/memory/') });

    // Forgotten with its reason: moved, never deleted.
    const forgot = await call(client, 'forget', { name: 'Money in cents', reason: 'we moved to decimals' });
    expect(forgot.text).toMatch(/forgotten \(moved to _archive\/, nothing deleted\)/);
    const dir = join(h.paths.claude, projectMemoryDir(project));
    expect(existsSync(join(dir, '_archive', 'money-in-cents.md'))).toBe(true);
    expect((await call(client, 'get_memory', { name: 'Money in cents' })).json().provenance.steps.at(-1)).toMatchObject({ action: 'forgotten', detail: 'we moved to decimals' });

    const timeline = (await call(client, 'timeline', {})).json();
    expect(timeline.sessions.map((s: { session: string }) => s.session)).toEqual(['sess-new', 'sess-old']);
    expect(timeline.sessions[0]).toMatchObject({ prompts: 1, toolCalls: 4, endedCleanly: true, trace: '1 prompt, 4 tool calls · ended · distilled pending' });
    expect((await call(client, 'timeline', { since: '2026-11-05' })).json().sessions.map((s: { session: string }) => s.session)).toEqual(['sess-new']);
    expect((await call(client, 'timeline', { until: '2026-11-05', limit: 5 })).json().sessions.map((s: { session: string }) => s.session)).toEqual(['sess-old']);
    expect((await call(client, 'timeline', { project: '/home/dev/elsewhere' })).json()).toEqual({ sessions: [], more: false });
    expect(timeline.more).toBe(false);
    const newest = (await call(client, 'timeline', { limit: 1 })).json();
    expect([newest.sessions.map((s: { session: string }) => s.session), newest.more]).toEqual([['sess-new'], true]);
    expect((await call(client, 'timeline', { project: 'all' })).json().sessions.map((s: { session: string }) => s.session)).toEqual(['sess-new', 'sess-old']);

    const resources = (await client.listResources()).resources;
    const pnpm = resources.find((r) => r.name === 'Use pnpm');
    expect(pnpm?.uri).toBe(pathToFileURL(join(dir, 'use-pnpm.md')).href);
    const read = await client.readResource({ uri: pnpm!.uri });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('name: Use pnpm') });
    await expect(client.readResource({ uri: pathToFileURL(join(h.paths.home, 'log', 'CURRENT')).href })).rejects.toThrow(/not one of engram's memory files/);
  });

  it('answers bad arguments with a clear MCP error and carries on; concurrent calls; a worker stopped meanwhile is started again', async () => {
    const bad = [
      await call(client, 'search_memories', {}),
      await call(client, 'search_memories', { query: 'pnpm', limit: 0 }),
      await call(client, 'get_memory', {}),
      await call(client, 'get_memory', { name: 'Use pnpm', file: 'use-pnpm.md' }),
      await call(client, 'get_memory', { name: 'nothing like it' }),
      await call(client, 'remember', { text: '   ' }),
      await call(client, 'remember', { text: 'x', type: 'gossip' }),
      await call(client, 'forget', { name: 'Use pnpm' }),
      await call(client, 'forget', { name: 'nothing like it', reason: 'no' }),
      await call(client, 'timeline', { since: 'last tuesday' }),
      await call(client, 'no_such_tool', {}),
    ];
    expect(bad.map((r) => r.error)).toEqual(bad.map(() => true));
    expect(bad[0]!.text).toMatch(/Input validation error: Invalid arguments for tool search_memories/);
    expect(bad[0]!.text).toContain('query');
    expect(bad[2]!.text).toBe('give exactly one of name or file');
    expect(bad[4]!.text).toContain('no memory is called "nothing like it"');
    expect(bad[7]!.text).toContain('reason');
    expect(bad[8]!.text).toContain('no memory is called "nothing like it"');
    expect(bad[9]!.text).toContain('a date (YYYY-MM-DD) or an ISO time');
    expect(bad[10]!.text).toContain('no_such_tool');

    // Many calls at once, of every kind: each gets its own right answer.
    const calls = await Promise.all([
      ...Array.from({ length: 6 }, () => call(client, 'search_memories', { query: 'pnpm lockfile install' })),
      ...Array.from({ length: 4 }, () => call(client, 'get_memory', { name: 'Lockfile in CI' })),
      ...Array.from({ length: 4 }, (_, i) => call(client, 'remember', { text: `Deploy window number ${i} is on Tuesdays at ${10 + i} o'clock` })),
      call(client, 'timeline', { limit: 1 }),
    ]);
    expect(calls.filter((c) => c.error).map((c) => c.text)).toEqual([]);
    expect(new Set(calls.slice(0, 6).map((c) => c.text)).size).toBe(1);
    expect(calls.slice(6, 10).map((c) => c.json().memory.name)).toEqual(Array(4).fill('Lockfile in CI'));
    expect(new Set(calls.slice(10, 14).map((c) => c.json().memory.id)).size).toBe(4);
    expect(calls[14]!.json().sessions).toHaveLength(1);

    // A client of the worker: it holds nothing of the log or the projections' state open.
    expect(openFiles(serverPid).filter((path) => path.startsWith(h.paths.home))).toEqual([]);
    expect((await cliHere(['worker', 'stop'], h.env)).code).toBe(0);
    const after = await call(client, 'search_memories', { query: 'pnpm lockfile install' });
    expect(after.error, after.text).toBe(false);
    // The same memories in the same order (their scores move a little: the remembered memories
    // joined the index and changed its word statistics).
    const names = (text: string) => (JSON.parse(text) as { memories: Array<{ name: string }> }).memories.map((m) => m.name);
    expect(names(after.text)).toEqual(names(calls[0]!.text));
  });

  it('skips a line that is not JSON-RPC and answers the next', async () => {
    const child = spawn(process.execPath, [cliPath, 'mcp'], { env: h.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write('not json at all\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    for (let i = 0; i < 200 && !stdout.includes('\n'); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'engram' } } });
    expect(stderr).toContain('engram mcp:');
  });
});
