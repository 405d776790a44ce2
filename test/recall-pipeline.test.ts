import { chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { projectMemoryDir } from '../src/paths.js';
import { recalledViewPath } from '../src/projections/view-paths.js';
import type { RecallRequest } from '../src/recall/recall.js';
import { Recaller } from '../src/recall/recaller.js';
import { useLiteEmbedder } from '../src/recall/embedders/use-lite-embedder.js';
import { VectorStore } from '../src/indexes/vector-store.js';
import { answerRecall } from '../src/worker/answer-recall.js';
import { waitUntil } from './support/wait-until.js';
import { cliHere, drain, dumpLog, runHook, type TempHome, tempHomeAt } from './support/temp-home.js';
import { memoryTmpdir } from './support/memory-tmpdir.js';
import { useWarmHookCode } from './support/warm-hook-code.js';

const project = '/home/dev/src/payments';
// Each test's home is the same directory, restored from the home seeded once (per embedder
// choice) for the file: seeding drains in this process, and with the model on that drain loads
// it. In the same place, since the projections' state names the files it wrote by their path;
// in memory, since nothing here is about the disk (memory-tmpdir.ts).
const base = mkdtempSync(join(memoryTmpdir(), 'engram-recall-pipeline-'));
const live = join(base, 'home');
const homes: TempHome[] = [];
afterEach(async () => {
  for (const h of homes.splice(0)) await h.cleanup();
});
afterAll(() => rmSync(base, { recursive: true, force: true }));
// The prompt hooks here are about recall, not their first start: each home gets the hook's
// compiled code, as a home has it after its first prompt (test/hook-code-cache.test.ts tests that).
const warmHookCode = useWarmHookCode();
const NOW = '2026-11-10T00:00:00.000Z';

const memories: Array<[id: string, name: string, body: string, more?: Record<string, unknown>]> = [
  ['pg', 'Postgres vacuum schedule', 'autovacuum is tuned for the ledger table; run VACUUM ANALYZE after bulk imports of settlements'],
  ['prov', 'Postgres vacuum might be broken', 'a guess that vacuum on the ledger table fails after bulk imports of settlements', { status: 'provisional', confidence: 0.3 }],
  ['ci', 'CI runs on the arm runners', 'the pipeline builds on arm64 runners; x86 images fail the docker build'],
  ['tabs', 'Tabs for indentation', 'the user indents with tabs in every language', { scope: 'global', type: 'user' }],
];

/** A home with the memories above recorded and projected: a fresh copy of the one seeded first with this embedder. */
async function seeded(env: NodeJS.ProcessEnv = {}): Promise<TempHome> {
  const template = join(base, `seeded-${env.ENGRAM_EMBEDDER ?? 'off'}`);
  const h = tempHomeAt(live, { ENGRAM_NOW: NOW, ...env });
  homes.push(h);
  if (!existsSync(template)) {
    await seed(h);
    cpSync(live, template, { recursive: true });
  } else {
    cpSync(template, live, { recursive: true });
  }
  await warmHookCode(h, ['UserPromptSubmit']);
  return h;
}

async function seed(h: TempHome): Promise<void> {
  mkdirSync(h.paths.spoolNew, { recursive: true });
  memories.forEach(([memoryId, name, body, more = {}], i) => {
    const global = more.scope === 'global';
    const event = {
      id: `seed-memory-${i}-000000`, type: 'MemoryProposed', schemaVersion: 1, ts: `2026-11-0${i + 1}T10:00:00.000Z`, session: '', project: global ? '' : project,
      data: { memoryId, origin: 'user', scope: 'project', name, description: name, type: 'project', body: `${body}\n`, status: 'active', confidence: 0.9, ...more },
    };
    writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + i)}-1-0000000${i}.json`), JSON.stringify(event));
  });
  // What the distiller records of the vacuum memory's graph: the graph signal's entity.
  const graphed = {
    id: 'seed-graph-pg-000000', type: 'MemoryGraphed', schemaVersion: 1, ts: '2026-11-08T10:00:00.000Z', session: '', project,
    data: { memoryId: 'pg', graph: { entities: [{ name: 'Postgres', type: 'service' }, { name: 'ledger table', type: 'concept' }], relations: [] } },
  };
  writeFileSync(join(h.paths.spoolNew, '1700000000000100-1-00000100.json'), JSON.stringify(graphed));
  await drain(h.env);
}

const prompt = (session: string, text: string) => ({ session_id: session, cwd: project, hook_event_name: 'UserPromptSubmit', prompt: text });
const ASK = 'how do we handle vacuum on the ledger table after bulk imports of settlements?';

describe('engram query', () => {
  it('prints the fused ranking as JSON with absolute paths and signals, never a provisional memory', async () => {
    const h = await seeded();
    const result = await cliHere(['query', ASK, '--project', project, '--json'], h.env);
    expect(result.code, result.stderr).toBe(0);
    const found = JSON.parse(result.stdout) as Array<{ file: string; name: string; score: number; signals: string[] }>;
    expect(found.map((m) => m.name)).toEqual(['Postgres vacuum schedule']);
    expect(found[0]!.signals[0]).toBe('bm25');
    expect(found[0]!.file.startsWith(join(h.paths.claude, projectMemoryDir(project)))).toBe(true);
    expect(existsSync(found[0]!.file)).toBe(true);
    expect(found[0]!.score).toBeGreaterThan(0);
    // The graph names what the prompt names: the printed signal says which entity.
    const byEntity = JSON.parse((await cliHere(['query', 'is postgres slow on the ledger table?', '--project', project, '--json'], h.env)).stdout) as typeof found;
    expect(byEntity[0]).toMatchObject({ name: 'Postgres vacuum schedule' });
    expect(byEntity[0]!.signals.some((signal) => /^graph:(Postgres|ledger table)$/.test(signal))).toBe(true);

    // One content word: the ranking (--all) answers it; the gate (the hook, plain query) wants two.
    const one = await cliHere(['query', 'vacuum', '--project', project, '--json', '--all'], h.env);
    expect((JSON.parse(one.stdout) as typeof found).map((m) => m.name)).toEqual(['Postgres vacuum schedule']);
    expect(JSON.parse((await cliHere(['query', 'vacuum', '--project', project, '--json'], h.env)).stdout)).toEqual([]);
    // A human-readable line otherwise.
    const text = await cliHere(['query', ASK, '--project', project], h.env);
    expect(text.stdout).toMatch(/^SCORE +SIGNALS +NAME +FILE\n\d\S* +bm25.* +Postgres vacuum schedule +\//);
  });

  // Three loads of the model (the drain, the query, the batch): slow on a loaded machine.
  it('fuses the vector list when an embedder is on: --all shows which signals found each memory', { timeout: 180_000 }, async () => {
    const h = await seeded({ ENGRAM_EMBEDDER: 'use-lite' });
    const result = await cliHere(['query', ASK, '--project', project, '--json', '--all'], h.env);
    expect(result.code, result.stderr).toBe(0);
    const found = JSON.parse(result.stdout) as Array<{ name: string; signals: string[] }>;
    expect(found[0]).toMatchObject({ name: 'Postgres vacuum schedule', signals: expect.arrayContaining(['bm25', 'vector']) });
    // The vectors table holds active memories only: the provisional one is on no list.
    expect(found.map((m) => m.name)).not.toContain('Postgres vacuum might be broken');
    expect(found.filter((m) => m.signals.includes('vector')).length).toBeGreaterThan(1);
    // Without --all, the cut: the vector-only memories are far below half the best. A prompt about
    // nothing remembered: the vector list is never empty, but alone it must clear the floor. One
    // batch, so one load of the model for both.
    const file = join(h.root, 'queries.jsonl');
    writeFileSync(file, [{ id: 'cut', text: ASK, project }, { id: 'nothing', text: 'what will the weather be like for our hiking trip tomorrow', project }].map((q) => JSON.stringify(q)).join('\n'));
    const batch = await cliHere(['query', '--batch', file, '--json'], h.env);
    expect(batch.code, batch.stderr).toBe(0);
    const lines = batch.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; results: Array<{ name: string; signals: string[] }> });
    expect(lines.map((line) => [line.id, line.results.map((m) => m.name)])).toEqual([['cut', ['Postgres vacuum schedule']], ['nothing', []]]);
    // The batch ranks with the vectors too: the cut memory was found by both lists.
    expect(lines[0]!.results[0]!.signals).toEqual(expect.arrayContaining(['bm25', 'vector']));
  });

  it('answers a batch file one JSON line per query, a bad line reported and the rest answered', async () => {
    const h = await seeded();
    const file = join(h.root, 'queries.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ id: 'q1', text: ASK, project }),
        'not json',
        JSON.stringify({ id: 2, text: 'docker build fails on x86 images in the pipeline', project }),
        JSON.stringify({ id: 'q3', text: 'indentation with tabs for the user', project: '' }),
      ].join('\n'),
    );
    const result = await cliHere(['query', '--batch', file, '--json'], h.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 2: not JSON');
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.id, line.results.map((r: { name: string }) => r.name)])).toEqual([
      ['q1', ['Postgres vacuum schedule']],
      [2, ['CI runs on the arm runners']],
      ['q3', ['Tabs for indentation']],
    ]);
    expect((await cliHere(['query', '--batch', file], h.env)).code).toBe(2);
  });
});

describe('recall in the prompt hook', () => {
  it('with no worker, recalls from the index files, records it, and gives a memory once per session', async () => {
    const h = await seeded();
    const first = await runHook('UserPromptSubmit', prompt('s1', ASK), h.env);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('Postgres vacuum schedule');
    expect(first.stdout).toContain(`(${join(h.paths.claude, projectMemoryDir(project))}/`);
    expect(first.stdout).toContain('[bm25]');
    expect(first.stdout).not.toContain('might be broken');
    await drain(h.env);
    const recalled = (await dumpLog(h.env)).filter((e) => e.type === 'MemoriesRecalled');
    expect(recalled).toHaveLength(1);
    expect(recalled[0]!.data).toMatchObject({ memoryIds: ['pg'], via: 'fallback', signals: [['bm25']] });
    // What the cut left out is recorded beside it, each with why (the viewer's recall traces).
    expect(Array.isArray(recalled[0]!.data.leftOut)).toBe(true);
    for (const item of recalled[0]!.data.leftOut) expect(['below-cut', 'past-limit', 'already-recalled']).toContain(item.why);
    expect(JSON.parse(readFileSync(join(h.paths.views, recalledViewPath('s1')), 'utf8'))).toEqual(['pg']);

    const again = await runHook('UserPromptSubmit', prompt('s1', `${ASK} again please`), h.env);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('Postgres vacuum schedule');
    // Another session is given it.
    const other = await runHook('UserPromptSubmit', prompt('s2', ASK), h.env);
    expect(other.stdout).toContain('Postgres vacuum schedule');
  });

  it('one word, 10,000 words and code alone: exits 0 with nothing or a sane few lines', async () => {
    const h = await seeded();
    const one = await runHook('UserPromptSubmit', prompt('s1', 'vacuum'), h.env);
    expect(one).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const words = ['ledger', 'deploy', 'banana', 'river', 'kernel', 'sunset', 'matrix', 'violin', 'harbor', 'pepper'];
    const long = Array.from({ length: 10_000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
    const huge = await runHook('UserPromptSubmit', prompt('s1', long), h.env);
    expect(huge.code).toBe(0);
    expect(huge.stdout.split('\n').filter((line) => line.startsWith('- ')).length).toBeLessThanOrEqual(3);
    const code = 'function f(a,b){return a.map((x)=>x*b).filter(Boolean)}\nconst x = f([1,2,3], 2);';
    const onlyCode = await runHook('UserPromptSubmit', prompt('s1', code), h.env);
    expect(onlyCode).toMatchObject({ code: 0, stderr: '' });
    expect(onlyCode.stdout).toBe('');
    // ENGRAM_DISABLE still makes it do nothing at all.
    expect(await runHook('UserPromptSubmit', prompt('s3', ASK), { ...h.env, ENGRAM_DISABLE: '1' })).toMatchObject({ code: 0, stdout: '' });
  });

  it('with a worker up, the worker answers and the session filter holds', async () => {
    const h = await seeded({ ENGRAM_RECALL_WAIT_MS: '5000' });
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    await waitUntil(() => existsSync(h.paths.pidFile));
    const first = await runHook('UserPromptSubmit', prompt('w1', ASK), h.env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Postgres vacuum schedule');
    await waitUntil(() => existsSync(join(h.paths.views, recalledViewPath('w1'))));
    const again = await runHook('UserPromptSubmit', prompt('w1', ASK), h.env);
    expect(again.stdout).not.toContain('Postgres vacuum schedule');
    expect((await cliHere(['worker', 'stop'], h.env)).code).toBe(0);
    const recalled = (await dumpLog(h.env)).filter((e) => e.type === 'MemoriesRecalled');
    expect(recalled.map((e) => e.data.via)).toEqual(['worker']);
    expect(recalled[0]!.data.signals[0]).toContain('bm25');
    expect(Array.isArray(recalled[0]!.data.leftOut)).toBe(true);
  });
});

describe('the prompt hook\'s first question', () => {
  // Shaped as GitHub writes its tokens; made up.
  const SECRET = 'ghp_Zq8vN2kR5tW7yB1cD4fG6hJ9mL3pS0xA2eUi';

  it('reaches the worker before the bundle runs, as typed; a worker that never answers costs the wait, not the recall', async () => {
    const h = await seeded({ ENGRAM_RECALL_WAIT_MS: '400', ENGRAM_WORKER_AUTOSTART: '0' });
    // A process at the worker's socket that reads every question and answers none: a hung worker.
    const questions: Array<Record<string, unknown>> = [];
    const server = createServer((socket) => {
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString('utf8');
        for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
          questions.push(JSON.parse(buffered.slice(0, at)) as Record<string, unknown>);
          buffered = buffered.slice(at + 1);
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(h.paths.socket, resolve));
    try {
      const asked = await runHook('UserPromptSubmit', prompt('q1', `${ASK} token ${SECRET}`), h.env);
      expect(asked).toMatchObject({ code: 0, stderr: '' });
      // The index files answered once the wait ran out.
      expect(asked.stdout).toContain('Postgres vacuum schedule');
      const recalls = () => questions.filter((q) => q.op === 'recall');
      // Sent by the entry, before the redactor is loaded: the worker redacts it (answer-recall.ts).
      expect(recalls()).toEqual([{ op: 'recall', text: `${ASK} token ${SECRET}`, project, session: 'q1' }]);
      // A prompt too short to recall anything asks nothing.
      expect(await runHook('UserPromptSubmit', prompt('q1', 'yes, go on'), h.env)).toMatchObject({ code: 0, stdout: '' });
      expect(recalls()).toHaveLength(1);
      // Switched off, it asks nothing either.
      expect(await runHook('UserPromptSubmit', prompt('q1', ASK), { ...h.env, ENGRAM_RECALL_WAIT_MS: '0' })).toMatchObject({ code: 0 });
      expect(recalls()).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    await drain(h.env);
    const log = await dumpLog(h.env);
    expect(log.filter((e) => e.type === 'MemoriesRecalled').map((e) => e.data.via)).toEqual(['fallback', 'fallback']);
    // What was stored is redacted, as ever.
    expect(JSON.stringify(log)).not.toContain(SECRET);
  });

  // Only root can give a socket to another user; elsewhere this case cannot be made.
  it.skipIf(process.getuid?.() !== 0)('goes to no socket another user owns (a long ENGRAM_HOME puts the socket in /tmp)', async () => {
    const h = await seeded({ ENGRAM_RECALL_WAIT_MS: '400', ENGRAM_WORKER_AUTOSTART: '0' });
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(h.paths.socket, resolve));
    try {
      chownSync(h.paths.socket, 4242, 4242);
      const asked = await runHook('UserPromptSubmit', prompt('u1', `${ASK} token ${SECRET}`), h.env);
      expect(asked).toMatchObject({ code: 0, stderr: '' });
      expect(asked.stdout).toContain('Postgres vacuum schedule');
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is redacted by the worker before recall reads it', async () => {
    const h = await seeded();
    const recaller = new Recaller({ paths: h.paths });
    const asked: string[] = [];
    const lines: string[] = [];
    try {
      const watched = { ask: (request: RecallRequest) => (asked.push(request.text), recaller.ask(request)) };
      const result = await answerRecall(watched, { text: `${ASK} with ${SECRET}`, project, session: '' }, { paths: h.paths, now: new Date(NOW), log: (line) => lines.push(line) });
      expect(result.memories.map((m) => m.id)).toEqual(['pg']);
    } finally {
      recaller.close();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]).not.toContain(SECRET);
    expect(asked[0]).toContain('[REDACTED:');
    expect(lines).toEqual([]);
  });
});

describe('the prompt hook\'s bundle', () => {
  it('holds the fallback and the socket client, with zod/mini and the stemmer only: no LanceDB, model, LevelDB or full zod', async () => {
    const entry = join(import.meta.dirname, '..', 'src', 'hooks', 'user-prompt-submit.ts');
    const result = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.endsWith('src/recall/recall.ts'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('src/hooks/ask-worker-recall.ts'))).toBe(true);
    const packages = new Set(inputs.flatMap((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? []));
    expect([...packages].sort()).toEqual(['stemmer', 'zod']);
    expect(inputs.filter((path) => path.includes('node_modules/zod/') && path.includes('/classic/'))).toEqual([]);
    const loaded = [...result.outputFiles[0]!.text.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    for (const name of loaded) expect(name).toMatch(/^node:/);
  });
});

describe('recall from the first prompt', () => {
  it('while the model loads, the worker\'s recaller answers at once from BM25 and the graph, starts the load, and fuses the vectors once it is in', { timeout: 240_000 }, async () => {
    const h = await seeded({ ENGRAM_EMBEDDER: 'use-lite' });
    const embedder = useLiteEmbedder();
    const store = new VectorStore({ dir: h.paths.vectors, model: embedder.model, dimensions: embedder.dimensions });
    let skipped = 0;
    const recaller = new Recaller({ paths: h.paths, vectors: { store, embedder }, whileLoading: { skipWhileLoading: true, onSkipped: () => skipped++ } });
    try {
      expect(embedder.loaded!()).toBe(false);
      const first = await recaller.ask({ text: ASK, project, now: new Date(NOW) });
      // Answered without waiting for the model: by the lexical list, with nothing left out as a problem.
      expect(first.memories.map((m) => m.id)).toEqual(['pg']);
      expect(first.memories[0]!.signals).not.toContain('vector');
      expect(first.problems).toEqual([]);
      expect(skipped).toBe(1);
      expect(await waitUntil(() => embedder.loaded!(), 120_000)).toBe(true);
      const later = await recaller.ask({ text: ASK, project, now: new Date(NOW) });
      expect(later.memories[0]!.signals).toEqual(expect.arrayContaining(['bm25', 'vector']));
      expect(skipped).toBe(1);
      // A model let go (an idle unload) is the same as one not yet loaded.
      await embedder.close();
      expect((await recaller.ask({ text: ASK, project, now: new Date(NOW) })).memories[0]!.signals).not.toContain('vector');
      expect(skipped).toBe(2);
    } finally {
      recaller.close();
      await embedder.close();
      await store.close();
    }
  });
});

describe('the model in a worker that sits idle', () => {
  it('is let go after ENGRAM_MODEL_IDLE_MS unused, says so in `worker status`, and recall still answers and loads it again', { timeout: 300_000 }, async () => {
    // The prompt hook waits for the worker's answer, so the worker is the one asked.
    const h = await seeded({ ENGRAM_EMBEDDER: 'use-lite', ENGRAM_MODEL_IDLE_MS: '500', ENGRAM_RECALL_WAIT_MS: '60000' });
    const started = await cliHere(['worker', '--detach'], h.env);
    expect(started.code, started.stderr).toBe(0);
    const status = async () => JSON.parse((await cliHere(['worker', 'status', '--json'], h.env)).stdout) as { model: { state: string; idleMs: number; unloads: number }; rssMb: number };
    try {
      expect((await status()).model).toEqual({ state: 'not loaded', idleMs: 500, unloads: 0 });
      const first = await runHook('UserPromptSubmit', prompt('idle-1', ASK), h.env);
      expect(first.stdout).toContain('Postgres vacuum schedule');
      // The first question started the load; unused since, the model is then let go.
      expect(await waitUntil(async () => (await status()).model.unloads === 1, 240_000, 250)).toBe(true);
      const text = (await cliHere(['worker', 'status'], h.env)).stdout;
      expect(text).toMatch(/^model: not loaded \(let go after 1 s unused\); resident memory \d+ MB$/m);
      expect(readFileSync(h.paths.workerLog, 'utf8')).toContain('model let go after being unused');

      // Recall answers at once without it, and loads it again (to be let go once more).
      const again = await runHook('UserPromptSubmit', prompt('idle-2', ASK), h.env);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('Postgres vacuum schedule');
      expect(await waitUntil(async () => (await status()).model.unloads === 2, 240_000, 250)).toBe(true);
    } finally {
      await cliHere(['worker', 'stop'], h.env);
    }
  });
});
