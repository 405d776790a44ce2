// The MCP server's `search_memories` round trip (the SDK's own client over stdio to a running
// `engram mcp`, which asks the warm worker) against `engram query`'s own time (the command a
// person runs: a process that ranks in-process), on the same memories and texts, interleaved run
// by run. BM25 and graph only (ENGRAM_EMBEDDER=off), as in recall-bench; both rank with the same
// Recaller, and every run checks that both return the same memories in the same order.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { memories, vocabulary } from './recall-index-bench.js';
import { seededRandom } from './seeded-random.js';

const PROJECT = '/home/dev/src/bench-mcp';

export interface McpSearchResult {
  size: number;
  runs: number;
  /** Median wall time of one `search_memories` call, client to client. */
  mcpMs: number;
  mcpP95Ms: number;
  /** Median wall time of `engram query TEXT --project P --json`. */
  queryMs: number;
  /** Runs where both found something. */
  found: number;
  /** Runs where both returned the same memories in the same order. */
  same: number;
}

export async function mcpSearchBench(options: { repo: string; scratch: string; runs: number; size: number }): Promise<McpSearchResult> {
  const root = join(options.scratch, 'mcp-bench');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ENGRAM_HOME: join(root, 'home'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    ENGRAM_EMBEDDER: 'off',
    ENGRAM_DISTILLER: 'off',
    ENGRAM_WORKER_IDLE_MS: '120000',
    ENGRAM_WORKER_AUTOSTART: '1',
  };
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const spool = join(root, 'home', 'spool', 'new');
  mkdirSync(spool, { recursive: true });
  const seeded = memories(options.size, 11);
  seeded.forEach((m, i) => {
    const event = {
      id: `bench-mcp-${String(i).padStart(8, '0')}`, type: 'MemoryProposed', schemaVersion: 1, ts: '2026-11-01T00:00:00.000Z', session: '', project: PROJECT,
      data: { memoryId: m.id, origin: 'user', scope: 'project', name: m.name.slice(0, 200), description: m.description.slice(0, 1000), type: 'project', tier: 'fact', body: `${m.body}\n`, status: 'active', confidence: 0.8 },
    };
    writeFileSync(join(spool, `${String(1_700_000_000_000_000 + i)}-1-${String(i).padStart(8, '0')}.json`), JSON.stringify(event));
  });
  const run = (args: string[]) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (result.status !== 0) throw new Error(`engram ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return { ms: performance.now() - started, stdout: result.stdout.toString('utf8') };
  };
  run(['worker', '--drain']);
  const random = seededRandom(5);
  const word = vocabulary(30_000, random);
  // A memory's name and a few other words: most texts find something, as a question about the project would.
  const texts = Array.from({ length: options.runs + 3 }, () => `${seeded[Math.floor(random() * seeded.length)]!.name} ${Array.from({ length: 2 + Math.floor(random() * 4) }, word).join(' ')}`);
  const client = new Client({ name: 'engram-bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--project', PROJECT], env, stderr: 'ignore' }));
  try {
    const search = async (text: string) => {
      const started = performance.now();
      const result = (await client.callTool({ name: 'search_memories', arguments: { query: text } })) as { content: Array<{ text: string }>; isError?: boolean };
      const ms = performance.now() - started;
      if (result.isError) throw new Error(`search_memories failed: ${result.content[0]?.text}`);
      return { ms, names: (JSON.parse(result.content[0]!.text).memories as Array<{ name: string }>).map((m) => m.name) };
    };
    // Warm-up: the first call starts the worker and opens the index.
    for (const text of texts.slice(0, 3)) await search(text);
    const mcp: number[] = [];
    const query: number[] = [];
    let found = 0;
    let same = 0;
    for (const text of texts.slice(3)) {
      const q = run(['query', text, '--project', PROJECT, '--json']);
      query.push(q.ms);
      const m = await search(text);
      mcp.push(m.ms);
      const names = (JSON.parse(q.stdout) as Array<{ name: string }>).map((r) => r.name);
      if (names.length > 0 && m.names.length > 0) found++;
      if (JSON.stringify(names) === JSON.stringify(m.names)) same++;
    }
    const sorted = [...mcp].sort((a, b) => a - b);
    return { size: options.size, runs: options.runs, mcpMs: median(mcp), mcpP95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!, queryMs: median(query), found, same };
  } finally {
    await client.close();
    run(['worker', 'stop']);
  }
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

if (process.argv[1]?.endsWith('mcp-bench.js')) {
  const scratch = mkdtempSync(join(tmpdir(), 'engram-mcp-bench-'));
  try {
    const r = await mcpSearchBench({ repo: resolve(import.meta.dirname, '..', '..'), scratch, runs: 20, size: 1_000 });
    console.log(`MCP search_memories round trip vs engram query, ${r.size} memories: ${(r.mcpMs / r.queryMs).toFixed(3)}× (median ${r.mcpMs.toFixed(1)} ms, p95 ${r.mcpP95Ms.toFixed(1)} ms vs ${r.queryMs.toFixed(1)} ms); same ranking ${r.same}/${r.runs}, found ${r.found}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
