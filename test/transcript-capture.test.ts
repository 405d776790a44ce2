import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureTranscript } from '../src/capture/capture-transcript.js';
import { EXCERPT_HEAD, EXCERPT_TAIL } from '../src/events/transcript-events.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { repoRoot } from './support/temp-home.js';

const SESSION = '7f3c2a10-5b8e-4d1a-9c6f-2e8b4a1d0c33';
const fixtureDir = join(repoRoot, 'fixtures', 'transcripts');
const fixture = join(fixtureDir, `${SESSION}.jsonl`);
const SECRET = 'sk_live_51Hq8ZtK2eZvKYlo2C9xQwErTy7UiOp3AsDfGh';
const root = mkdtempSync(join(tmpdir(), 'engram-transcript-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const scratch = () => {
  const dir = join(root, String(++n));
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** A transcript line in Claude Code's shape. */
function line(type: 'user' | 'assistant', content: unknown, at: string, extra: object = {}): string {
  return JSON.stringify({
    parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/dev/src/app', sessionId: 's-1',
    version: '2.0.14', gitBranch: 'main', type, message: { role: type, content }, uuid: `u-${at}`, timestamp: at, ...extra,
  });
}

const headings = (excerpt: string) => excerpt.split('\n').filter((l) => /^\[(user|assistant|summary|the conversation)/.test(l));

describe('the transcript capture', () => {
  it('keeps the main conversation\'s user and assistant text and drops every other line type', async () => {
    const capture = await captureTranscript(fixture);
    const { excerpt } = capture;
    // Said by the user (string and text-block content) and the assistant, in file order.
    const kept = [
      'Webhook retries time out after 30s in staging',
      "I'll start with the retry worker",
      'Found it: `client.ts` creates the agent',
      'Use exponential backoff capped at 5 attempts',
      'Retries now back off exponentially',
      'This session is being continued from a previous conversation',
      'Now add a test for the backoff',
      'Added `retry-backoff.test.ts`',
    ];
    const at = kept.map((text) => excerpt.indexOf(text));
    expect(at.every((i) => i >= 0), JSON.stringify(at)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const dropped = [
      'Found 2 files', // tool_result
      'Exit code 1', // tool_result with is_error
      'retryWebhook', // tool_use input, and the inline sidechain prompt
      'The timeout is probably in the HTTP client', // thinking
      'Use fake timers', // thinking
      'time out in staging"', // summary line
      'Caveat:', // isMeta
      'API Error: 529', // Claude Code's synthetic stand-in for a failed answer
      'hook_progress', // progress
      'trackedFileBackups', // file-history-snapshot
      'and update the changelog', // queue-operation (a type the reader does not know)
      'stop_hook_summary', // system
      '<command-name>', // system local_command
      'Two callers', // inline sidechain answer
      'One place: `new Agent', // subagent file
      'Now the tim', // corrupt line
      "that's all for today", // the cut-short last line
    ];
    for (const text of dropped) expect(excerpt, text).not.toContain(text);
    expect(headings(excerpt)).toEqual([
      '[user]', '[assistant]', '[user]', '[assistant]',
      '[the conversation was compacted here]',
      '[summary Claude Code wrote of the conversation before the compaction]',
      '[user]', '[assistant]',
    ]);
    expect(capture).toMatchObject({
      transcriptPath: fixture,
      cut: false,
      missing: false,
      lagging: false,
      counts: {
        lines: 31, userTurns: 3, assistantTurns: 4, compactions: 1, sidechainTurns: 2,
        subagentFiles: 1, subagentTurns: 2, skippedLines: 2, chars: expect.any(Number),
      },
    });
    expect(capture.notes).toEqual(['transcript: 1 line skipped (not JSON)', 'transcript: 1 line skipped (cut short)']);
    expect(() => defaultCatalog().read({ id: 'transcript:x', type: 'TranscriptCaptured', schemaVersion: 1, ts: '2026-11-03T15:00:00.000Z', session: SESSION, project: '/p', data: capture })).not.toThrow();
  });

  it('never lets a secret in the transcript reach the capture', async () => {
    const capture = await captureTranscript(fixture);
    expect(readFileSync(fixture, 'utf8')).toContain(SECRET);
    expect(JSON.stringify(capture)).not.toContain('sk_live_');
    expect(capture.excerpt).toContain('STRIPE_SECRET_KEY=[REDACTED:stripe-key]');
  });

  it('keeps the first 4,000 and the last 26,000 characters, and says how many were left out between', async () => {
    // 60 turns (about 35,000 characters) are cut after redacting the whole; 2,000 in a window.
    for (const turns of [60, 2_000]) {
      const dir = scratch();
      const lines: string[] = [];
      const sections: string[] = [];
      for (let i = 0; i < turns; i++) {
        const role = i % 2 === 0 ? 'user' : 'assistant';
        const text = `turn ${i}: ${'lorem ipsum dolor sit amet '.repeat(20)}end of turn ${i}.`;
        lines.push(line(role, role === 'user' ? text : [{ type: 'text', text }], `2026-11-03T10:00:${String(i % 60).padStart(2, '0')}.000Z`));
        sections.push(`[${role}]\n${text}`);
      }
      const path = join(dir, 's-1.jsonl');
      writeFileSync(path, lines.join('\n') + '\n');
      const whole = sections.join('\n\n');
      const capture = await captureTranscript(path);
      expect(capture.cut).toBe(true);
      expect(capture.counts.chars).toBe(whole.length);
      const left = whole.length - EXCERPT_HEAD - EXCERPT_TAIL;
      expect(capture.excerpt).toBe(
        `${whole.slice(0, EXCERPT_HEAD)}\n\n[… ${left.toLocaleString('en-US')} characters of the conversation left out …]\n\n${whole.slice(-EXCERPT_TAIL)}`,
      );
    }
  });

  it('cuts around a secret, never through it, at both ends of the excerpt', async () => {
    const dir = scratch();
    const filler = (k: number) => 'x'.repeat(k);
    // The secret straddles character 4,000 and, in a second file, where the tail begins.
    const head = `${filler(EXCERPT_HEAD - '[user]\n'.length - 20)}key ${SECRET} ${filler(200_000)}`;
    const tailText = `${filler(100_000)} key ${SECRET} ${filler(EXCERPT_TAIL - 30)}`;
    for (const text of [head, tailText]) {
      const path = join(dir, `s-${text.length}.jsonl`);
      writeFileSync(path, line('user', text, '2026-11-03T10:00:00.000Z') + '\n');
      const capture = await captureTranscript(path);
      expect(capture.cut).toBe(true);
      for (let i = 0; i + 8 <= SECRET.length; i++) expect(capture.excerpt).not.toContain(SECRET.slice(i, i + 8));
      // Whole markers only: neither end of the excerpt starts or ends inside one.
      expect(capture.excerpt.replace(/\[REDACTED:[a-z-]+\]/g, '')).not.toMatch(/REDACTED|CTED:|[a-z]+-key\]/);
    }
  });

  it('ends with the Stop hook\'s answer when the transcript lags it, and only then', async () => {
    const dir = scratch();
    const path = join(dir, 'lagging.jsonl');
    const early = [line('user', 'rename the flag', '2026-11-03T10:00:00.000Z'), line('assistant', [{ type: 'text', text: 'Looking at the flag now.' }], '2026-11-03T10:00:05.000Z')];
    writeFileSync(path, early.join('\n') + '\n');
    const finalAnswer = { text: 'Renamed `--fast` to `--quick` in 3 files.', at: '2026-11-03T10:01:00.000Z' };
    const lagging = await captureTranscript(path, { finalAnswer });
    expect(lagging.lagging).toBe(true);
    expect(lagging.excerpt.endsWith('Looking at the flag now.\n\nRenamed `--fast` to `--quick` in 3 files.')).toBe(true);

    writeFileSync(path, [...early, line('assistant', [{ type: 'text', text: finalAnswer.text }], '2026-11-03T10:00:59.000Z')].join('\n') + '\n');
    const caughtUp = await captureTranscript(path, { finalAnswer });
    expect(caughtUp.lagging).toBe(false);
    expect(caughtUp.excerpt.split('Renamed `--fast`').length).toBe(2);

    // The hook sends the final message's text; the file has it a block per line.
    writeFileSync(path, [...early, line('assistant', [{ type: 'text', text: 'Renamed the flag.' }], '2026-11-03T10:00:58.000Z'), line('assistant', [{ type: 'text', text: finalAnswer.text }], '2026-11-03T10:00:59.000Z')].join('\n') + '\n');
    expect((await captureTranscript(path, { finalAnswer: { ...finalAnswer, text: `Renamed the flag.\n\n${finalAnswer.text}` } })).lagging).toBe(false);
    expect((await captureTranscript(path, { finalAnswer })).lagging).toBe(false);

    // A later answer in the file than the hook's copy: the file is ahead, not behind.
    writeFileSync(path, [...early, line('assistant', [{ type: 'text', text: 'And updated the docs.' }], '2026-11-03T10:02:00.000Z')].join('\n') + '\n');
    expect((await captureTranscript(path, { finalAnswer })).lagging).toBe(false);

    // Nothing said yet in the file: the user's prompt, then the hook's answer.
    writeFileSync(path, early[0] + '\n');
    const onlyPrompt = await captureTranscript(path, { finalAnswer });
    expect(onlyPrompt).toMatchObject({ lagging: true, excerpt: `[user]\nrename the flag\n\n[assistant]\n${finalAnswer.text}` });
  });

  it('reads a missing file, a directory, a path that is no transcript, binary junk and overlong lines without throwing', async () => {
    const dir = scratch();
    const missing = await captureTranscript(join(dir, 'gone.jsonl'), { finalAnswer: { text: 'Done.', at: '2026-11-03T10:00:00.000Z' } });
    expect(missing).toMatchObject({ missing: true, lagging: true, excerpt: '[assistant]\nDone.', counts: { lines: 0, skippedLines: 0 } });
    expect(missing.notes[0]).toBe('no transcript at the path');

    expect(await captureTranscript(undefined)).toMatchObject({ transcriptPath: '', missing: true, excerpt: '', notes: ['no transcript path'] });

    mkdirSync(join(dir, 'adir.jsonl'));
    const directory = await captureTranscript(join(dir, 'adir.jsonl'));
    expect(directory).toMatchObject({ missing: true, excerpt: '' });
    expect(directory.notes[0]).toBe('the transcript path is not a regular file: not read');
    // A device named like a transcript: /dev/zero would never end.
    symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
    expect(await captureTranscript(join(dir, 'zero.jsonl'))).toMatchObject({ missing: true, excerpt: '', notes: ['the transcript path is not a regular file: not read'] });
    writeFileSync(join(dir, 'empty.jsonl'), '');
    expect(await captureTranscript(join(dir, 'empty.jsonl'))).toMatchObject({ missing: false, excerpt: '', notes: [], counts: { lines: 0 } });

    writeFileSync(join(dir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    expect(await captureTranscript(join(dir, 'passwd'))).toMatchObject({ missing: true, excerpt: '', notes: ['the transcript path does not name a .jsonl file: not read'] });

    const junk = Buffer.alloc(3 * 1024 * 1024);
    let seed = 7;
    for (let i = 0; i < junk.length; i++) junk[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    const binary = join(dir, 'binary.jsonl');
    writeFileSync(binary, Buffer.concat([Buffer.from(line('user', 'before the junk', '2026-11-03T10:00:00.000Z') + '\n'), junk, Buffer.from('\n' + line('assistant', [{ type: 'text', text: 'after the junk' }], '2026-11-03T10:00:01.000Z') + '\n')]));
    const readJunk = await captureTranscript(binary, { maxLineBytes: 64 * 1024 });
    expect(readJunk.excerpt).toBe('[user]\nbefore the junk\n\n[assistant]\nafter the junk');
    expect(readJunk.counts.skippedLines).toBeGreaterThan(0);
    expect(readJunk.counts.userTurns + readJunk.counts.assistantTurns).toBe(2);

    const long = join(dir, 'long.jsonl');
    writeFileSync(long, `${line('user', 'x'.repeat(200_000), '2026-11-03T10:00:00.000Z')}\n${line('user', 'short', '2026-11-03T10:00:01.000Z')}\n["not", "a", "line"]\n{"type": "user", "message": {"content": 42}}\n`);
    const readLong = await captureTranscript(long, { maxLineBytes: 100_000 });
    expect(readLong).toMatchObject({ excerpt: '[user]\nshort', counts: { skippedLines: 3 } });
    expect(readLong.notes).toEqual([
      'transcript: 1 line skipped (too long)',
      'transcript: 1 line skipped (not a transcript line)',
      'transcript: 1 line skipped (unreadable message)',
    ]);
  });

  it('streams a transcript of tens of megabytes, bulky tool results and all (memory: see the bench row)', async () => {
    const dir = scratch();
    const path = join(dir, 'big.jsonl');
    const bulk = 'y'.repeat(64 * 1024);
    const chunk: string[] = [];
    for (let i = 0; i < 16; i++) chunk.push(line('user', [{ type: 'tool_result', tool_use_id: `t${i}`, content: bulk }], '2026-11-03T10:00:00.000Z'));
    const block = chunk.join('\n') + '\n';
    writeFileSync(path, line('user', 'first prompt', '2026-11-03T10:00:00.000Z') + '\n');
    for (let i = 0; i < 48; i++) writeFileSync(path, block, { flag: 'a' });
    writeFileSync(path, line('assistant', [{ type: 'text', text: 'last answer' }], '2026-11-03T11:00:00.000Z') + '\n', { flag: 'a' });
    const capture = await captureTranscript(path);
    expect(capture).toMatchObject({ excerpt: '[user]\nfirst prompt\n\n[assistant]\nlast answer', counts: { lines: 2 + 48 * 16, skippedLines: 0 } });
  });

  it('counts a subagent file\'s turns only when it sits beside its own transcript', async () => {
    const dir = scratch();
    cpSync(fixtureDir, dir, { recursive: true });
    const capture = await captureTranscript(join(dir, `${SESSION}.jsonl`));
    expect(capture.counts).toMatchObject({ subagentFiles: 1, subagentTurns: 2 });
    writeFileSync(join(dir, SESSION, 'subagents', 'agent-bad.jsonl'), '{"type":"user","message":{"role":"user","content":"cut');
    writeFileSync(join(dir, SESSION, 'subagents', 'notes.txt'), 'not a subagent');
    const withBad = await captureTranscript(join(dir, `${SESSION}.jsonl`));
    expect(withBad.counts).toMatchObject({ subagentFiles: 2, subagentTurns: 2, skippedLines: 3 });
    expect(withBad.notes).toContain('agent-bad.jsonl: 1 line skipped (cut short)');
  });
});
