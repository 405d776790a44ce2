import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export interface CliBenchResult {
  what: string;
  medianMs: number;
  baselineMs: number;
  ratio: number;
}

/**
 * The CLI's start (issue 22): `engram --help`, and a command the running worker answers
 * (`engram log stats`), each against `node -e 0`, interleaved run by run, medians. The worker
 * runs in a home of the bench's own. The CLI is the bin users run (package.json's `bin`: the
 * bundled front end, scripts/bundle-cli.mjs); the worker it talks to is the tsc build.
 */
export function cliBench(options: { repo: string; scratch: string; runs: number }): CliBenchResult[] {
  const env = { ...process.env, ENGRAM_HOME: join(options.scratch, 'cli-home'), CLAUDE_CONFIG_DIR: join(options.scratch, 'cli-claude'), ENGRAM_WORKER_IDLE_MS: '120000' };
  const cli = join(options.repo, 'dist', 'src', 'cli', 'engram.js');
  const run = (args: string[]) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return performance.now() - started;
  };
  run([cli, 'worker', '--detach']);
  try {
    const cases: Array<[string, string[]]> = [
      ['engram --help', [cli, '--help']],
      ['engram log stats, answered by the worker', [cli, 'log', 'stats']],
    ];
    const baseline: number[] = [];
    const times = cases.map(() => [] as number[]);
    for (let i = 0; i < options.runs; i++) {
      baseline.push(run(['-e', '0']));
      cases.forEach(([, args], c) => times[c]!.push(run(args)));
    }
    const baselineMs = median(baseline);
    return cases.map(([what], c) => ({ what, medianMs: median(times[c]!), baselineMs, ratio: median(times[c]!) / baselineMs }));
  } finally {
    run([cli, 'worker', 'stop']);
  }
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
