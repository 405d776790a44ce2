import { execFileSync } from 'node:child_process';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface TranscriptBenchResult {
  mb: number;
  /** captureTranscript over the file, in a process of its own. */
  captureMs: number;
  captureRssMb: number;
  /** Streaming the same bytes and doing nothing with them, in a process of its own. */
  readMs: number;
  readRssMb: number;
}

/**
 * A transcript of about `mb` megabytes in the proportions of a long real session (tool results
 * and progress lines carry the bulk, text turns are a small part), captured in a child process
 * so its peak RSS is its own; the baseline child streams the same file and discards it.
 */
export function transcriptBench(scratch: string, mb: number): TranscriptBenchResult {
  const path = join(scratch, 'big-session.jsonl');
  writeTranscript(path, mb);
  const capture = resolve(import.meta.dirname, '..', 'src', 'capture', 'capture-transcript.js');
  const peakRss = resolve(import.meta.dirname, 'peak-rss.js');
  const measure = (body: string) => {
    const script = `const { peakRssMb } = await import(${JSON.stringify(peakRss)}); const t = performance.now(); ${body}; console.log(JSON.stringify({ ms: performance.now() - t, rss: peakRssMb() }));`;
    return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { ms: number; rss: number };
  };
  const read = measure(`const { createReadStream } = await import('node:fs'); for await (const chunk of createReadStream(${JSON.stringify(path)}, { highWaterMark: 256 * 1024 })) void chunk`);
  const captured = measure(`const { captureTranscript } = await import(${JSON.stringify(capture)}); const c = await captureTranscript(${JSON.stringify(path)}); if (c.counts.userTurns === 0) throw new Error('nothing read')`);
  return { mb: statSync(path).size / 1e6, captureMs: captured.ms, captureRssMb: captured.rss, readMs: read.ms, readRssMb: read.rss };
}

function writeTranscript(path: string, mb: number): void {
  const fd = openSync(path, 'w');
  const common = { isSidechain: false, userType: 'external', cwd: '/home/dev/src/app', sessionId: 'bench', version: '2.0.14', gitBranch: 'main' };
  const output = 'line of tool output that goes on for a while, as test runs and file reads do\n'.repeat(400);
  let written = 0;
  for (let turn = 0; written < mb * 1e6; turn++) {
    const at = new Date(Date.UTC(2026, 10, 3, 10, 0, turn)).toISOString();
    const lines = [
      { ...common, type: 'user', uuid: `u${turn}`, timestamp: at, message: { role: 'user', content: `Step ${turn}: run the tests again and fix what fails.` } },
      { ...common, type: 'assistant', uuid: `a${turn}`, timestamp: at, message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'Check the failing test first.', signature: 'sig' }] } },
      { ...common, type: 'assistant', uuid: `b${turn}`, timestamp: at, message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Bash', input: { command: 'npm test' } }] } },
      { type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse' }, toolUseID: `toolu_${turn}`, timestamp: at, uuid: `p${turn}` },
      { ...common, type: 'user', uuid: `r${turn}`, timestamp: at, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: output, is_error: turn % 3 === 0 }] } },
      { ...common, type: 'assistant', uuid: `c${turn}`, timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: `Fixed step ${turn}: the fixture path was relative; all tests pass.` }] } },
    ];
    const text = lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
    written += writeSync(fd, text);
  }
  closeSync(fd);
}
