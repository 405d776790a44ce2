// `node dist/bench/llm-bench.js`: what the distiller's LLM plumbing costs around the model itself,
// with the fake LLM of fixtures/ as the command: a run through runLlm against the same command
// spawned bare (ratio, interleaved), how long after its timeout a hanging group is gone, and
// what building a full-size prompt and parsing an answer take. Not part of `npm run bench`: run
// alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseDistillAnswer } from '../src/distill/distill-answer.js';
import { buildDistillPrompt } from '../src/distill/distill-prompt.js';
import { runLlm } from '../src/distill/run-llm.js';

const repo = resolve(import.meta.dirname, '..', '..');
const fake = join(repo, 'fixtures', 'fake-llm', 'fake-llm.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'engram-llm-bench-'));
const env = { ...process.env, ENGRAM_HOME: join(scratch, 'home'), ENGRAM_LLM_CMD: `'${process.execPath}' '${fake}'`, FAKE_LLM_MODE: 'good' };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const prompt = buildDistillPrompt({
  transcript: 'user: why are JPY refunds off by one?\nassistant: floats. '.repeat(600).slice(0, 30_000),
  trace: { filesTouched: Array.from({ length: 40 }, (_, i) => `src/f${i}.ts`), commands: ['npm test'], counts: { prompts: 9, toolCalls: 40 } },
  index: Array.from({ length: 150 }, (_, i) => ({ name: `memory ${i}`, description: `what memory ${i} holds, in one line` })),
});

function bare(): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [fake], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('close', () => done());
    child.stdin.end(prompt);
  });
}

try {
  const viaRunner: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < 8; i++) {
    let t = performance.now();
    await bare();
    direct.push(performance.now() - t);
    t = performance.now();
    const result = await runLlm(prompt, { env });
    viaRunner.push(performance.now() - t);
    if (!result.ok) throw new Error(`run failed: ${result.reason}`);
  }

  const kills: number[] = [];
  for (const ignoreTerm of ['', '1']) {
    const t = performance.now();
    await runLlm(prompt, { env: { ...env, FAKE_LLM_MODE: 'hang', FAKE_LLM_IGNORE_TERM: ignoreTerm, ENGRAM_LLM_CMD: `exec ${env.ENGRAM_LLM_CMD}` }, timeoutMs: 500, killGraceMs: 500 });
    kills.push(performance.now() - t - 500);
  }

  const stdout = (await runLlm(prompt, { env })).stdout;
  let t = performance.now();
  for (let i = 0; i < 200; i++) buildDistillPrompt({ transcript: prompt.slice(-30_000), trace: {}, index: [] });
  const build = (performance.now() - t) / 200;
  t = performance.now();
  for (let i = 0; i < 200; i++) parseDistillAnswer(stdout);
  const parse = (performance.now() - t) / 200;

  console.log('engram llm bench\n');
  console.log(`runLlm vs the same command spawned bare: ${median(viaRunner).toFixed(0)} ms vs ${median(direct).toFixed(0)} ms (ratio ${(median(viaRunner) / median(direct)).toFixed(2)}), median of 8`);
  console.log(`a hanging group gone after its timeout: ${kills[0]!.toFixed(0)} ms (dies on SIGTERM), ${kills[1]!.toFixed(0)} ms (ignores SIGTERM; grace 500 ms)`);
  console.log(`prompt of ${prompt.length} characters: built in ${build.toFixed(2)} ms; a good answer parsed and sanitised in ${parse.toFixed(2)} ms`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
