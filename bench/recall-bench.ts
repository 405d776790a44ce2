// The recall pipeline as the prompt hook and the worker run it: the UserPromptSubmit hook's wall
// time with a warm worker answering and with no worker (BM25 over the index files in the hook),
// each against `node -e 0` fed the same stdin, interleaved run by run; and recall() kept warm
// (the worker's Recaller) at 1,000, 10,000 and 100,000 memories. BM25 alone (ENGRAM_EMBEDDER=off):
// the embedder's own cost per query is embed-bench's to report.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectSlug } from '../src/paths.js';
import { recallIndexViewPath } from '../src/projections/view-paths.js';
import { buildBm25 } from '../src/recall/bm25.js';
import { serializeLexicalIndex } from '../src/recall/lexical-index.js';
import { Recaller } from '../src/recall/recaller.js';
import { memories, vocabulary } from './recall-index-bench.js';
import { seededRandom as rng } from './seeded-random.js';

const PROJECT = '/home/dev/src/bench-recall';

export interface RecallHookResult {
  worker: 'warm' | 'none';
  medianMs: number;
  baselineMs: number;
  /** Runs that printed recalled memories. */
  recalled: number;
  runs: number;
}

export interface RecallQueryResult {
  size: number;
  medianMs: number;
  p95Ms: number;
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

export async function recallHookBench(options: { repo: string; scratch: string; runs: number; size: number }): Promise<RecallHookResult[]> {
  const home = join(options.scratch, 'recall-home');
  const env = {
    ...process.env,
    ENGRAM_HOME: home,
    CLAUDE_CONFIG_DIR: join(options.scratch, 'recall-claude'),
    ENGRAM_EMBEDDER: 'off',
    ENGRAM_DISTILLER: 'off',
    ENGRAM_WORKER_IDLE_MS: '120000',
    ENGRAM_WORKER_AUTOSTART: '0',
  };
  writeIndex(join(home, 'views'), options.size);
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const hook = join(options.repo, 'dist', 'hooks', 'user-prompt-submit.cjs');
  const run = (args: string[], input: string) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { env, input, stdio: ['pipe', 'pipe', 'ignore'] });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
    return { ms: performance.now() - started, printed: result.stdout.length > 0 };
  };
  const texts = prompts(options.runs);
  const measure = (worker: 'warm' | 'none'): RecallHookResult => {
    const base: number[] = [];
    const own: number[] = [];
    let recalled = 0;
    for (let i = 0; i < options.runs; i++) {
      // A new session each run: nothing is left out as already given.
      const input = JSON.stringify({ session_id: `bench-${worker}-${i}`, cwd: PROJECT, hook_event_name: 'UserPromptSubmit', prompt: texts[i]! });
      base.push(run(['-e', '0'], input).ms);
      const r = run([hook], input);
      own.push(r.ms);
      if (r.printed) recalled++;
    }
    return { worker, medianMs: median(own), baselineMs: median(base), recalled, runs: options.runs };
  };
  const none = measure('none');
  run([cli, 'worker', '--detach'], '');
  try {
    for (let i = 0; i < 100 && !existsSync(join(home, 'worker.pid')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    // A worker starting on a home with no memories in its log resets the recall-index projection,
    // which owns views/recall/: the file is put back, as the projection would have written it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    writeIndex(join(home, 'views'), options.size);
    // The worker's first recall opens the index file.
    run([hook], JSON.stringify({ session_id: 'bench-warmup', cwd: PROJECT, hook_event_name: 'UserPromptSubmit', prompt: texts[0]! }));
    return [measure('warm'), none];
  } finally {
    run([cli, 'worker', 'stop'], '');
  }
}

/** recall() through a warm Recaller (index open, as in the worker), per size, interleaved. */
export async function recallQueryBench(scratch: string, sizes: readonly number[], rounds = 60): Promise<RecallQueryResult[]> {
  const texts = prompts(64);
  const now = new Date('2026-12-01T00:00:00.000Z');
  const setups = sizes.map((size) => {
    const views = join(scratch, `recall-query-${size}`, 'views');
    writeIndex(views, size);
    return { size, recaller: new Recaller({ paths: { views, claude: join(scratch, 'claude') } }), times: [] as number[] };
  });
  try {
    for (let round = 0; round < rounds + 3; round++) {
      for (const setup of setups) {
        const t = performance.now();
        await setup.recaller.ask({ text: texts[round % texts.length]!, project: PROJECT, now });
        if (round >= 3) setup.times.push(performance.now() - t);
      }
    }
  } finally {
    for (const setup of setups) setup.recaller.close();
  }
  return setups.map(({ size, times }) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { size, medianMs: median(times), p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! };
  });
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
