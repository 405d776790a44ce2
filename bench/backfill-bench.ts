import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectSlug } from '../src/paths.js';
import { writeBigTranscript } from './claude-history.js';

export interface BackfillRun {
  mb: number;
  ms: number;
  events: number;
  peakRssMb: number;
}

export interface BackfillBenchResult {
  big: BackfillRun;
  small: BackfillRun;
  /** Streaming the big transcript's bytes and doing nothing with them, in a process of its own. */
  readMs: number;
}

/**
 * `engram backfill` of one transcript of `mb` megabytes, generated here, and of one a tenth of
 * that size, each in a process of its own so its peak RSS is its own: memory must stay flat (the
 * file is streamed), not grow with the file.
 */
export function backfillBench(scratch: string, mb: number): BackfillBenchResult {
  const child = resolve(import.meta.dirname, 'backfill-child.js');
  const run = (name: string, size: number): BackfillRun => {
    const claude = join(scratch, name, 'claude');
    const dir = join(claude, 'projects', projectSlug('/home/dev/src/app'));
    mkdirSync(dir, { recursive: true });
    writeBigTranscript(join(dir, 'b16b16b1-0000-4000-8000-000000000000.jsonl'), size);
    const out = JSON.parse(execFileSync(process.execPath, [child, claude, join(scratch, name, 'log')], { encoding: 'utf8' })) as { ms: number; events: number; bytes: number; peakRssMb: number };
    return { mb: out.bytes / 1e6, ms: out.ms, events: out.events, peakRssMb: out.peakRssMb };
  };
  const small = run('backfill-small', mb / 10);
  const big = run('backfill-big', mb);
  const path = join(scratch, 'backfill-big', 'claude', 'projects', projectSlug('/home/dev/src/app'), 'b16b16b1-0000-4000-8000-000000000000.jsonl');
  const script = `const t = performance.now(); const { createReadStream } = await import('node:fs'); for await (const chunk of createReadStream(${JSON.stringify(path)}, { highWaterMark: 256 * 1024 })) void chunk; console.log(JSON.stringify({ ms: performance.now() - t }));`;
  const read = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { ms: number };
  return { big, small, readMs: read.ms };
}
