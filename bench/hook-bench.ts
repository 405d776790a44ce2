import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DirEntry } from '../src/projections/memories/memory-row.js';
import { renderSummary } from '../src/projections/summary/render-summary.js';
import { summaryViewPath, traceViewPath } from '../src/projections/view-paths.js';

export interface HookBenchResult {
  hook: string;
  medianMs: number;
  baselineMs: number;
  ratio: number;
}

const payloads: Record<string, unknown> = {
  'session-start': { source: 'startup' },
  'user-prompt-submit': { prompt: 'why does the payments test fail on CI but not locally? DATABASE_URL=postgres://app:hunter2@db/x' },
  'post-tool-use': { tool_name: 'Bash', tool_input: { command: 'npm test -- --run payments', description: 'run tests' }, tool_response: { stdout: 'ok', stderr: '' }, tool_use_id: 'toolu_01' },
  'post-tool-use-failure': { tool_name: 'Bash', tool_input: { command: 'npm test' }, error: 'Exit code 1\nFAIL payments.test.ts', tool_use_id: 'toolu_02' },
  'pre-compact': { trigger: 'auto' },
  stop: { stop_hook_active: false, last_assistant_message: 'Done: the test now passes.' },
  'subagent-stop': { agent_type: 'Explore', agent_transcript_path: '/tmp/agent.jsonl' },
  'session-end': { reason: 'prompt_input_exit' },
};

/**
 * Each hook's median wall time over `runs` processes, against `node -e 0` fed the same stdin,
 * interleaved run by run. A worker runs, as in real use, so hooks do their liveness check.
 */
export async function hookBench(options: { repo: string; scratch: string; runs: number }): Promise<HookBenchResult[]> {
  const env = {
    ...process.env,
    ENGRAM_HOME: join(options.scratch, 'hook-home'),
    CLAUDE_CONFIG_DIR: join(options.scratch, 'hook-claude'),
    ENGRAM_WORKER_IDLE_MS: '120000',
  };
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const run = (args: string[], input: string | Buffer, stdout: 'ignore' | 'pipe' = 'ignore') => {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { env, input, stdio: ['pipe', stdout, 'ignore'] });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
    if (stdout === 'pipe' && args.length === 1 && result.stdout.length === 0) throw new Error(`${args[0]} printed nothing`);
    return performance.now() - started;
  };
  run([cli, 'worker', '--detach'], '');
  try {
    const hooks = Object.keys(payloads);
    const times = new Map<string, number[]>(hooks.map((hook) => [hook, []]));
    const baseline: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      for (const hook of hooks) {
        const input = JSON.stringify({
          session_id: `bench-${i}`,
          transcript_path: '/tmp/t.jsonl',
          cwd: '/home/dev/src/bench',
          hook_event_name: hook,
          ...(payloads[hook] as object),
        });
        baseline.push(run(['-e', '0'], input));
        times.get(hook)!.push(run([join(options.repo, 'dist', 'hooks', `${hook}.cjs`)], input));
      }
    }
    const baselineMs = median(baseline);
    const results = hooks.map((hook) => {
      const medianMs = median(times.get(hook)!);
      return { hook, medianMs, baselineMs, ratio: medianMs / baselineMs };
    });
    // Bad stdin (what test/hooks.test.ts feeds them, untimed): a HookInputRejected event and a
    // hooks.log line, checked here against the same budget as any hook.
    const malformed: Array<[string, string, string | Buffer]> = [
      ['stop, stdin not JSON', 'stop', '{"session_id": "sess-1", '],
      ['pre-compact, 4 KB of binary stdin', 'pre-compact', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256))],
      ['session-end, empty stdin', 'session-end', ''],
    ];
    for (const [label, hook, input] of malformed) {
      const base: number[] = [];
      const own: number[] = [];
      for (let i = 0; i < options.runs; i++) {
        base.push(run(['-e', '0'], input));
        own.push(run([join(options.repo, 'dist', 'hooks', `${hook}.cjs`)], input));
      }
      results.push({ hook: label, medianMs: median(own), baselineMs: median(base), ratio: median(own) / median(base) });
    }
    // A correction: the prompt hook also runs the correction detector and prints its line.
    const correction = JSON.stringify({
      session_id: 'bench-correction', cwd: '/home/dev/src/bench', hook_event_name: 'UserPromptSubmit',
      prompt: 'No, I told you already. Use pnpm, not npm, and from now on run the linter before you commit.',
    });
    const correctionBase: number[] = [];
    const correctionTimes: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      correctionBase.push(run(['-e', '0'], correction));
      correctionTimes.push(run([join(options.repo, 'dist', 'hooks', 'user-prompt-submit.cjs')], correction));
    }
    results.push({ hook: 'user-prompt-submit, a correction', medianMs: median(correctionTimes), baselineMs: median(correctionBase), ratio: median(correctionTimes) / median(correctionBase) });
    // SessionStart with something to print: the project's and the global summary at their cap,
    // and a trace; both sides read stdout through a pipe, as Claude Code does.
    const summaryCwd = '/home/dev/src/bench-summary';
    writeSummaries(join(env.ENGRAM_HOME, 'views'), summaryCwd);
    const printing = JSON.stringify({ session_id: 'bench-summary', cwd: summaryCwd, hook_event_name: 'SessionStart', source: 'compact' });
    const printBase: number[] = [];
    const printOwn: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      printBase.push(run(['-e', '0'], printing, 'pipe'));
      printOwn.push(run([join(options.repo, 'dist', 'hooks', 'session-start.cjs')], printing, 'pipe'));
    }
    results.push({ hook: 'session-start, printing full summaries', medianMs: median(printOwn), baselineMs: median(printBase), ratio: median(printOwn) / median(printBase) });
    // What a hook's usual path does without: node:net, loaded only to hand over or, where there
    // is no /proc, to ask the worker's socket whether it lives.
    // Script files, as hooks are: `node -e` measures something else.
    const withoutNet = join(options.scratch, 'without-net.cjs');
    const withNet = join(options.scratch, 'with-net.cjs');
    writeFileSync(withoutNet, "require('node:fs');\n");
    writeFileSync(withNet, "require('node:fs');\nrequire('node:net');\n");
    const bare: number[] = [];
    const net: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      bare.push(run([withoutNet], ''));
      net.push(run([withNet], ''));
    }
    results.push({ hook: '(node:net)', medianMs: median(net), baselineMs: median(bare), ratio: median(net) / median(bare) });
    // The worst ordinary input: a 5 MB paste, cut to the stored cap after redacting its head.
    const huge = JSON.stringify({ session_id: 'bench-huge', cwd: '/home/dev/src/bench', prompt: 'lorem ipsum dolor '.repeat(290_000) });
    const hugeBaseline: number[] = [];
    const hugeTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      hugeBaseline.push(run(['-e', "require('fs').readFileSync(0)"], huge));
      hugeTimes.push(run([join(options.repo, 'dist', 'hooks', 'user-prompt-submit.cjs')], huge));
    }
    const hugeBaselineMs = median(hugeBaseline);
    results.push({ hook: 'user-prompt-submit, 5 MB prompt', medianMs: median(hugeTimes), baselineMs: hugeBaselineMs, ratio: median(hugeTimes) / hugeBaselineMs });
    return results;
  } finally {
    run([cli, 'worker', 'stop'], '');
  }
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/** Summary files as the summary projection writes them, filled to their cap, and a trace view. */
function writeSummaries(views: string, project: string): void {
  const entries = new Map<string, DirEntry>();
  const tiers = ['preference', 'procedural', 'fact', 'episodic'] as const;
  for (let i = 0; i < 40; i++) {
    entries.set(`m${i}`, {
      id: `m${i}`,
      file: `m${i}.md`,
      name: `memory ${i} about ${tiers[i % 4]} things`,
      description: `what memory ${i} says, at some length: ${'lorem ipsum dolor sit amet '.repeat(6)}`,
      type: 'feedback',
      tier: tiers[i % 4],
      status: 'active',
      confidence: 0.8,
      lastReinforced: '2026-11-01T00:00:00.000Z',
      pinned: false,
      archived: undefined,
      penalty: 0,
      tokens: [],
    });
  }
  for (const [dir, owner] of [[`projects/x/memory`, project], ['engram/memory', '']] as const) {
    const path = join(views, summaryViewPath(owner));
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, renderSummary({ dir, project: owner, asOf: '2026-11-20T00:00:00.000Z' }, [...entries.values()]));
  }
  const trace = join(views, traceViewPath(project));
  mkdirSync(join(trace, '..'), { recursive: true });
  const session = { startedAt: null, endedAt: null, prompts: 3, toolCalls: 12, toolFailures: 0, endedCleanly: true, distilled: false };
  writeFileSync(trace, JSON.stringify({ project, line: '', sessions: [{ session: 'bench-summary', ...session }, { session: 'bench-before', ...session }] }, null, 2));
}
