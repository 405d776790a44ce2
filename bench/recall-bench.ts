// The recall pipeline as the prompt hook and the worker run it: the UserPromptSubmit hook's wall
// time with a warm worker answering and with no worker (BM25 over the index files in the hook),
// each against `node -e 0` fed the same stdin, interleaved run by run; and recall() kept warm
// (the worker's Recaller) at 1,000, 10,000 and 100,000 memories. BM25 alone (ENGRAM_EMBEDDER=off):
// the embedder's own cost per query is embed-bench's to report.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalSet } from '../scripts/recall-eval-set.js';
import { projectSlug } from '../src/paths.js';
import { recallIndexViewPath } from '../src/projections/view-paths.js';
import { buildBm25 } from '../src/indexes/bm25.js';
import { serializeLexicalIndex } from '../src/indexes/lexical-index.js';
import type { Embedder } from '../src/indexes/embedder.js';
import { Recaller } from '../src/recall/recaller.js';
import { VectorStore } from '../src/indexes/vector-store.js';
import { USE_LITE_MODEL } from '../src/recall/embedders/use-lite-model.js';
import { memories, vocabulary } from './recall-index-bench.js';
import { seededRandom as rng } from './seeded-random.js';

const PROJECT = '/home/dev/src/bench-recall';

export interface RecallHookResult {
  /** warm: a worker with vectors off (BM25 and graph); vectors: with its default embedder. */
  worker: 'warm' | 'none' | 'vectors';
  medianMs: number;
  baselineMs: number;
  /** Runs that printed recalled memories. */
  recalled: number;
  runs: number;
}

/** The first prompt after a cold worker start (`engram worker --detach`, then the prompt at once). */
export interface RecallColdResult {
  runs: number;
  /** Prompts that printed recalled memories. */
  recalled: number;
  /** Of those, answered by the worker (not the hook's own fallback after its wait ran out). */
  byWorker: number;
  medianMs: number;
  baselineMs: number;
}

export interface RecallQueryResult {
  size: number;
  medianMs: number;
  p95Ms: number;
  /** With `timeEmbedding`: the median time of the query's embedding alone, within medianMs. */
  embedMedianMs?: number;
}

/** Prompts of 4 to 12 words of the memories' own vocabulary: some recall, some do not. */
function prompts(count: number): string[] {
  const random = rng(7);
  const word = vocabulary(30_000, random);
  return Array.from({ length: count }, () => Array.from({ length: 4 + Math.floor(random() * 9) }, word).join(' '));
}

/** A views directory holding the project's index file of `size` memories. */
function writeIndex(views: string, size: number): void {
  const path = join(views, recallIndexViewPath(PROJECT));
  mkdirSync(join(path, '..'), { recursive: true });
  const dir = `projects/${projectSlug(PROJECT)}/memory`;
  writeFileSync(path, serializeLexicalIndex(buildBm25(memories(size, size)), { dir, project: PROJECT, asOf: '2026-12-01T00:00:00.000Z' }));
}

/**
 * The prompt hook over `size` memories: with no worker, and with a warm worker with vectors off;
 * with `vectors`, a warm worker with its default embedder (USE Lite) instead, over a vectors
 * table of `size` rows (random unit vectors, written as the index file is: the search costs the
 * same whatever they say), so each prompt is embedded and searched as users' are.
 */
export async function recallHookBench(options: { repo: string; scratch: string; runs: number; size: number; vectors?: boolean }): Promise<RecallHookResult[]> {
  const home = join(options.scratch, options.vectors ? 'recall-home-vectors' : 'recall-home');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ENGRAM_HOME: home,
    CLAUDE_CONFIG_DIR: join(options.scratch, 'recall-claude'),
    ENGRAM_EMBEDDER: 'off',
    ENGRAM_DISTILLER: 'off',
    ENGRAM_WORKER_IDLE_MS: '120000',
    ENGRAM_WORKER_AUTOSTART: '0',
  };
  if (options.vectors) delete env.ENGRAM_EMBEDDER;
  delete env.ENGRAM_RECALL_WAIT_MS;
  writeIndex(join(home, 'views'), options.size);
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const hook = join(options.repo, 'dist', 'hooks', 'user-prompt-submit.cjs');
  const run = runner(env);
  const texts = prompts(options.runs).map((text) => ({ text, project: PROJECT }));
  const measure = (worker: RecallHookResult['worker']) => measureHook(run, hook, worker, texts);
  const none = measure('none');
  run([cli, 'worker', '--detach'], '');
  try {
    for (let i = 0; i < 100 && !existsSync(join(home, 'worker.pid')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    // A worker starting on a home with no memories in its log resets the recall-index projection,
    // which owns views/recall/: the file is put back, as the projection would have written it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    writeIndex(join(home, 'views'), options.size);
    if (options.vectors) {
      // Written after the worker's start for the same reason, through another handle, as `engram rebuild` would.
      const store = await randomVectors(join(home, 'vectors'), { model: USE_LITE_MODEL, dimensions: 512 }, options.size);
      await store.close();
    }
    // The worker's first recall opens the index file (and loads the model, which a prompt would not wait for).
    spawnSync(process.execPath, [hook], {
      env: { ...env, ENGRAM_RECALL_WAIT_MS: '30000' },
      input: JSON.stringify({ session_id: 'bench-warmup', cwd: PROJECT, hook_event_name: 'UserPromptSubmit', prompt: texts[0]!.text }),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    if (options.vectors) await untilModelLoaded(env, cli, hook, { text: texts[0]!.text, project: PROJECT });
    return options.vectors ? [measure('vectors')] : [measure('warm'), none];
  } finally {
    run([cli, 'worker', 'stop'], '');
  }
}

/**
 * The prompt hook against a worker as users run it: the default embedder (USE Lite) loaded, the
 * evaluation set's memories (fixtures/recall, 404 in seven directories) imported and embedded, and
 * the set's own questions as prompts, each in its project. The hook waits for the worker as it
 * does by default (ENGRAM_RECALL_WAIT_MS 150), so what the worker's embedding and search cost
 * shows here.
 */
export async function recallHookVectorsBench(options: { repo: string; scratch: string; runs: number; coldRuns?: number }): Promise<RecallHookResult & { cold: RecallColdResult }> {
  let cold: RecallColdResult | undefined;
  const warm = await warmVectors(options, (result) => (cold = result));
  return { ...warm, cold: cold! };
}

/**
 * Each round: a worker started cold (no model in memory), then at once one of the set's
 * questions through the prompt hook with its default wait, beside `node -e 0`; the worker
 * stopped. Which answers came from the worker is read from the MemoriesRecalled events' `via`.
 */
function coldStarts(run: Run, cli: string, hook: string, questions: ReadonlyArray<{ text: string; project: string }>, rounds: number): RecallColdResult {
  const base: number[] = [];
  const own: number[] = [];
  let recalled = 0;
  for (let i = 0; i < rounds; i++) {
    const { text, project } = questions[(i * 7) % questions.length]!;
    const input = JSON.stringify({ session_id: `bench-cold-${i}`, cwd: project, hook_event_name: 'UserPromptSubmit', prompt: text });
    run([cli, 'worker', '--detach'], '');
    const r = run([hook], input);
    base.push(run(['-e', '0'], input).ms);
    own.push(r.ms);
    if (r.printed) recalled++;
    stopWhenUp(run, cli);
  }
  run([cli, 'worker', '--drain'], '');
  const dump = spawnSync(process.execPath, [cli, 'log', 'dump'], { env: runnerEnv.get(run), encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 }).stdout;
  const byWorker = dump.split('\n').filter((line) => line.includes('"MemoriesRecalled"') && line.includes('bench-cold-')).filter((line) => (JSON.parse(line) as { data: { via: string } }).data.via === 'worker').length;
  return { runs: rounds, recalled, byWorker, medianMs: median(own), baselineMs: median(base) };
}

async function warmVectors(options: { repo: string; scratch: string; runs: number; coldRuns?: number }, coldResult: (result: RecallColdResult) => void): Promise<RecallHookResult> {
  let cold: RecallColdResult | undefined;
  const home = join(options.scratch, 'recall-vectors-home');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ENGRAM_HOME: home,
    CLAUDE_CONFIG_DIR: join(options.scratch, 'recall-vectors-claude'),
    ENGRAM_DISTILLER: 'off',
    ENGRAM_WORKER_IDLE_MS: '120000',
    ENGRAM_WORKER_AUTOSTART: '0',
  };
  delete env.ENGRAM_EMBEDDER;
  delete env.ENGRAM_RECALL_WAIT_MS;
  const root = join(options.repo, 'fixtures', 'recall');
  const set = loadEvalSet(root);
  const questions = [...set.dev, ...set.test];
  const projectOf = new Map(questions.map((q) => [projectSlug(q.project), q.project]));
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const hook = join(options.repo, 'dist', 'hooks', 'user-prompt-submit.cjs');
  const run = runner(env);
  for (const slug of readdirSync(join(root, 'memories'))) {
    const target = slug === 'global' ? ['--global'] : ['--project', projectOf.get(slug) ?? slug];
    run([cli, 'import', join(root, 'memories', slug), ...target], '');
  }
  // Projects and embeds them all (the vectors table), then stops.
  run([cli, 'worker', '--drain'], '');
  cold = coldStarts(run, cli, hook, questions, options.coldRuns ?? 5);
  run([cli, 'worker', '--detach'], '');
  try {
    for (let i = 0; i < 100 && !existsSync(join(home, 'worker.pid')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    // The first recall loads the model; wait for it as a prompt would not.
    const warm = { ...env, ENGRAM_RECALL_WAIT_MS: '30000' };
    spawnSync(process.execPath, [hook], { env: warm, input: JSON.stringify({ session_id: 'bench-warmup', cwd: questions[0]!.project, hook_event_name: 'UserPromptSubmit', prompt: questions[0]!.text }), stdio: ['pipe', 'ignore', 'ignore'] });
    await untilModelLoaded(env, cli, hook, questions[0]!);
    const step = Math.max(1, Math.floor(questions.length / options.runs));
    const prompts = Array.from({ length: options.runs }, (_, i) => questions[(i * step) % questions.length]!);
    coldResult(cold!);
    return measureHook(run, hook, 'vectors', prompts);
  } finally {
    run([cli, 'worker', 'stop'], '');
  }
}

/**
 * Waits until the worker says its model is loaded (`engram worker status`), then asks one more
 * prompt with a long wait: a warm worker with vectors is measured with its model ready and its
 * vectors' mirror read. Before, the measured prompts began while the model loaded (answered
 * without vectors) and met its first, slowest calls.
 */
async function untilModelLoaded(env: NodeJS.ProcessEnv, cli: string, hook: string, prompt: { text: string; project: string }): Promise<void> {
  const deadline = performance.now() + 120_000;
  while (!/model: loaded/.test(spawnSync(process.execPath, [cli, 'worker', 'status'], { env, encoding: 'utf8' }).stdout ?? '')) {
    if (performance.now() > deadline) throw new Error('the worker did not load its model within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  spawnSync(process.execPath, [hook], {
    env: { ...env, ENGRAM_RECALL_WAIT_MS: '30000' },
    input: JSON.stringify({ session_id: 'bench-warmup-loaded', cwd: prompt.project, hook_event_name: 'UserPromptSubmit', prompt: prompt.text }),
    stdio: ['pipe', 'ignore', 'ignore'],
  });
}

type Run = (args: string[], input: string) => { ms: number; printed: boolean };

/**
 * `engram worker stop` once the worker the round started is up: stopped while it still starts
 * (a loaded machine), the stop finds nothing to stop and exits 1. Asked again for up to 60 s.
 */
function stopWhenUp(run: Run, cli: string): void {
  const deadline = performance.now() + 60_000;
  for (;;) {
    try {
      run([cli, 'worker', 'stop'], '');
      return;
    } catch (err) {
      if (performance.now() > deadline) throw err;
      spawnSync('sleep', ['0.5']);
    }
  }
}

const runnerEnv = new WeakMap<Run, NodeJS.ProcessEnv>();

function runner(env: NodeJS.ProcessEnv): Run {
  const run: Run = (args, input) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { env, input, stdio: ['pipe', 'pipe', 'ignore'] });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
    return { ms: performance.now() - started, printed: result.stdout.length > 0 };
  };
  runnerEnv.set(run, env);
  return run;
}

/** The hook's median wall time over the prompts, each run beside `node -e 0` fed the same stdin. */
function measureHook(run: Run, hook: string, worker: RecallHookResult['worker'], prompts: ReadonlyArray<{ text: string; project: string }>): RecallHookResult {
  const base: number[] = [];
  const own: number[] = [];
  let recalled = 0;
  prompts.forEach(({ text, project }, i) => {
    // A new session each run: nothing is left out as already given.
    const input = JSON.stringify({ session_id: `bench-${worker}-${i}`, cwd: project, hook_event_name: 'UserPromptSubmit', prompt: text });
    base.push(run(['-e', '0'], input).ms);
    const r = run([hook], input);
    own.push(r.ms);
    if (r.printed) recalled++;
  });
  return { worker, medianMs: median(own), baselineMs: median(base), recalled, runs: prompts.length };
}

/**
 * recall() through a warm Recaller (index open, as in the worker), per size, interleaved. With an
 * embedder, each size also gets a LanceDB vectors table of that many memories (random unit
 * vectors: the search costs the same whatever the vectors say), and every query is embedded by
 * it, as the worker does per prompt.
 */
export async function recallQueryBench(
  scratch: string,
  sizes: readonly number[],
  rounds = 60,
  embedder?: Embedder,
  options: { ranking?: boolean; timeEmbedding?: boolean } = {},
): Promise<RecallQueryResult[]> {
  const texts = prompts(64);
  const now = new Date('2026-12-01T00:00:00.000Z');
  const setups = [];
  for (const size of sizes) {
    const views = join(scratch, `recall-query-${size}`, 'views');
    writeIndex(views, size);
    const store = embedder ? await randomVectors(join(scratch, `recall-query-${size}`, 'vectors'), embedder, size) : undefined;
    const embeds: number[] = [];
    const timed = embedder && options.timeEmbedding ? timedEmbedder(embedder, embeds) : embedder;
    const vectors = store && timed ? { store, embedder: timed } : undefined;
    setups.push({ size, store, embeds, recaller: new Recaller({ paths: { views, claude: join(scratch, 'claude') }, vectors }), times: [] as number[] });
  }
  try {
    for (let round = 0; round < rounds + 3; round++) {
      for (const setup of setups) {
        const t = performance.now();
        // `ranking`: the ranking alone, as `engram query --all --limit 10` and MCP search ask it.
        await setup.recaller.ask({ text: texts[round % texts.length]!, project: PROJECT, now, ...(options.ranking ? { all: true, limit: 10 } : {}) });
        if (round >= 3) setup.times.push(performance.now() - t);
      }
    }
  } finally {
    for (const setup of setups) {
      setup.recaller.close();
      await setup.store?.close();
    }
  }
  return setups.map(({ size, times, embeds }) => {
    const sorted = [...times].sort((a, b) => a - b);
    // The first rounds' embeddings (the warm-up) are left out, as their times are.
    const measured = embeds.slice(-times.length);
    return { size, medianMs: median(times), p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!, ...(measured.length > 0 ? { embedMedianMs: median(measured) } : {}) };
  });
}

/** `embedder`, each call's time pushed to `times`. */
function timedEmbedder(embedder: Embedder, times: number[]): Embedder {
  return {
    model: embedder.model,
    dimensions: embedder.dimensions,
    async embed(texts, signal) {
      const started = performance.now();
      const vectors = await embedder.embed(texts, signal);
      times.push(performance.now() - started);
      return vectors;
    },
    close: () => embedder.close(),
    ...(embedder.loaded ? { loaded: () => embedder.loaded!() } : {}),
  };
}

/** A vectors table of `size` memories with the bench index's ids, in PROJECT. */
async function randomVectors(dir: string, embedder: Pick<Embedder, 'model' | 'dimensions'>, size: number): Promise<VectorStore> {
  const store = new VectorStore({ dir, model: embedder.model, dimensions: embedder.dimensions });
  const random = rng(size);
  const CHUNK = 10_000;
  for (let start = 0; start < size; start += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, size - start) }, (_, j) => {
      const vector = new Float32Array(embedder.dimensions).map(() => random() - 0.5);
      const norm = Math.hypot(...vector);
      return { id: `m${start + j}`, project: PROJECT, file: `memory-${start + j}.md`, name: `m${start + j}`, textHash: '', vector: vector.map((x) => x / norm) };
    });
    await store.upsert(rows);
  }
  return store;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
