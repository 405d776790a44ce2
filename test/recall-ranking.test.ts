import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recallDoc } from '../src/projections/recall/recall-doc.js';
import { buildBm25 } from '../src/indexes/bm25.js';
import { LexicalIndexFile, serializeLexicalIndex } from '../src/indexes/lexical-index.js';
import { recall, type RecallSources } from '../src/recall/recall.js';
import { cardOf } from '../src/recall/memory-card.js';
import { toolKinds } from '../src/indexes/tool-kinds.js';
import { cliHere, cliPath, drain, runHook, tempHome, type TempHome } from './support/temp-home.js';

const project = '/home/dev/src/app';
const QUESTION = 'which package manager should I use for installs';
const NOW = new Date('2026-12-01T00:00:00.000Z');

function sourcesOf(memories: Array<{ id: string; name: string; description: string; body: string }>): RecallSources {
  const docs = memories.map((m) =>
    recallDoc({ ...m, file: `${m.id}.md`, type: 'feedback', tier: undefined, confidence: 0.9, lastReinforced: '2026-11-30T00:00:00.000Z', extra: { top: [], metadata: [] }, graph: undefined }),
  );
  const index = LexicalIndexFile.fromBytes(Buffer.from(serializeLexicalIndex(buildBm25(docs), { dir: 'd', project: '', asOf: NOW.toISOString() })));
  const cards = new Map(index.memories().map((m) => [m.id, cardOf(m, '/d')]));
  return { indexes: [{ index, dir: '/d' }], card: (id) => cards.get(id) };
}

describe('ranking, apart from gating', () => {
  const sources = sourcesOf([
    { id: 'pnpm', name: 'Use pnpm here, not npm', description: 'Use pnpm here, not npm', body: 'No, I told you to use pnpm here, not npm' },
    { id: 'cents', name: 'Money in cents', description: 'amounts are integer cents', body: 'prices are stored as integer cents, never floats' },
    { id: 'ci', name: 'Lockfile in CI', description: 'CI runs the tests from a frozen lockfile', body: 'the pipeline fails on a changed lockfile' },
  ]);

  it('names a tool\'s kind beside the tool, from a closed table', () => {
    expect(toolKinds('No, I told you to use pnpm here, not npm')).toEqual(['package manager, installs dependencies']);
    expect(toolKinds('run vitest before pushing; the db is postgres')).toEqual(['test runner, tests', 'database']);
    expect(toolKinds('a warm bun and a gem of a day')).toEqual([]);
  });

  it('ranks the pnpm correction first for a question about the package manager, gated or not', async () => {
    const all = await recall(sources, { text: QUESTION, project: '', now: NOW, all: true });
    expect(all.memories[0]).toMatchObject({ id: 'pnpm', signals: ['bm25'] });
    const gated = await recall(sources, { text: QUESTION, project: '', now: NOW });
    expect(gated.memories.map((m) => m.id)).toEqual(['pnpm']);
  });

  it('ranks every memory sharing one content word, which the gate does not inject', async () => {
    const all = await recall(sources, { text: 'what about the floats', project: '', now: NOW, all: true });
    expect(all.memories.map((m) => m.id)).toEqual(['cents']);
    // One word of a two-word prompt: the ranking has it, the gate wants both.
    expect((await recall(sources, { text: 'floats frontend', project: '', now: NOW, all: true })).memories.map((m) => m.id)).toEqual(['cents']);
    expect((await recall(sources, { text: 'floats frontend', project: '', now: NOW })).memories).toEqual([]);
    // No shared word, no vectors: nothing, even with --all.
    expect((await recall(sources, { text: 'kubernetes ingress annotations', project: '', now: NOW, all: true })).memories).toEqual([]);
  });
});

// The correction as a user types it, through the real hook, worker and projections.
describe('the pnpm correction, found by engram query --all and MCP search_memories', () => {
  let h: TempHome;
  beforeAll(async () => {
    h = tempHome({ ENGRAM_WORKER_AUTOSTART: '1' });
    const hook = await runHook('UserPromptSubmit', { session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: project, hook_event_name: 'UserPromptSubmit', prompt: 'No, I told you to use pnpm here, not npm' }, { ...h.env, ENGRAM_WORKER_AUTOSTART: '0' });
    expect(hook.stdout).toContain('engram noted a lesson');
    await drain(h.env);
  }, 120_000);
  afterAll(async () => {
    await h?.cleanup();
  });

  it('engram query --all', async () => {
    const result = await cliHere(['query', QUESTION, '--project', project, '--all', '--limit', '10', '--json'], h.env);
    expect(result.code, result.stderr).toBe(0);
    const found = JSON.parse(result.stdout) as Array<{ name: string }>;
    expect(found.map((m) => m.name)).toEqual([expect.stringMatching(/pnpm/i)]);
    const none = await cliHere(['query', 'kubernetes ingress annotations', '--project', project, '--all', '--json'], h.env);
    expect(JSON.parse(none.stdout)).toEqual([]);
  });

  it('MCP search_memories', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp', '--project', project], env: h.env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'engram-test', version: '1' });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'search_memories', arguments: { query: QUESTION } })) as { content: Array<{ text?: string }>; isError?: boolean };
      const text = result.content.map((c) => c.text ?? '').join('');
      expect(result.isError, text).toBeFalsy();
      const memories = (JSON.parse(text) as { memories: Array<{ body: string }> }).memories;
      expect(memories.map((m) => m.body)).toEqual([expect.stringContaining('use pnpm here, not npm')]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
