import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHash } from '../src/content-hash.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { Envelope, StoredEnvelope } from '../src/events/envelope.js';
import { resolvePaths } from '../src/paths.js';
import type { ReactorContext } from '../src/engine/reactor.js';
import { ReactorRunner } from '../src/engine/reactor-runner.js';
import type { DistillerDeps } from '../src/reactors/distiller.js';
import { transcriptCaptureReactor } from '../src/reactors/transcript-capture.js';
import { captureTranscript } from '../src/capture/capture-transcript.js';
import { harnessClock, projectionHarness, type Harness } from './support/projection-harness.js';
import { secretCasePerShape } from './redaction-corpus.js';
import { drain, dumpLog, repoRoot, runHook, useTempHomes } from './support/temp-home.js';

const SESSION = '7f3c2a10-5b8e-4d1a-9c6f-2e8b4a1d0c33';
const PROJECT = '/home/dev/src/payments-api';
const home = useTempHomes();
const root = mkdtempSync(join(tmpdir(), 'engram-capture-reactor-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

let seq = 0;
function event(type: string, schemaVersion: number, session: string, ts: string, data: unknown): Envelope {
  return { id: `evt-${String(++seq).padStart(6, '0')}-test`, type, schemaVersion, ts, session, project: PROJECT, data };
}

async function readAll(h: Harness): Promise<StoredEnvelope[]> {
  const all: StoredEnvelope[] = [];
  for await (const batch of h.log.read()) all.push(...batch);
  return all;
}

/** What the reactor runner hands a round, without the runner: a round run by hand. */
async function directContext(h: Harness, from: number, signal: AbortSignal): Promise<ReactorContext> {
  return {
    runner: await h.runner(), log: h.log, catalog: defaultCatalog(), from, to: h.log.head, clock: harnessClock, signal,
    paths: resolvePaths({ ENGRAM_HOME: join(h.dir, 'home'), CLAUDE_CONFIG_DIR: h.roots.claude }),
    newId: () => 'never-used-here',
    record: async () => 0,
  };
}

function lanes(h: Harness, runner: Awaited<ReturnType<Harness['runner']>>) {
  return new ReactorRunner({
    log: h.log, catalog: defaultCatalog(), runner, store: h.store, clock: harnessClock,
    paths: resolvePaths({ ENGRAM_HOME: join(h.dir, 'home'), CLAUDE_CONFIG_DIR: h.roots.claude }),
    reactors: [transcriptCaptureReactor()],
  });
}

describe('the transcript-capture reactor', () => {
  it('records one capture per ended session, ending with the Stop answer the file lacks, and stores it once however often it runs', async () => {
    const h = await projectionHarness(join(root, String(++n)));
    const projects = join(h.roots.claude, 'projects', '-home-dev-src-payments-api');
    cpSync(join(repoRoot, 'fixtures', 'transcripts'), projects, { recursive: true });
    const transcriptPath = join(projects, `${SESSION}.jsonl`);
    const answer = 'All 15 webhook tests pass, and the CHANGELOG says why retries back off now.';
    await h.log.append([
      event('SessionStarted', 1, SESSION, '2026-11-03T14:02:00.000Z', { source: 'startup', transcriptPath }),
      event('PromptSubmitted', 2, SESSION, '2026-11-03T14:02:03.000Z', { prompt: 'Webhook retries time out', chars: 24, truncated: false }),
      // A Stop of the old schemaVersion: no answer kept, upcast to ''.
      event('TurnStopped', 1, SESSION, '2026-11-03T14:02:50.000Z', { stopHookActive: false, answerChars: 120 }),
      event('TurnStopped', 2, SESSION, '2026-11-03T14:07:10.000Z', { stopHookActive: false, answerChars: answer.length, answer }),
      event('SessionEnded', 1, SESSION, '2026-11-03T14:07:20.000Z', { reason: 'prompt_input_exit', transcriptPath }),
      // No transcript path: nothing to read, nothing recorded.
      event('SessionEnded', 1, 'other-no-path', '2026-11-03T15:00:00.000Z', { reason: 'other' }),
      // A data shape no schema accepts: passed over, never the end of the round.
      event('SessionEnded', 1, 'other-bad', '2026-11-03T15:00:01.000Z', { reason: 42 }),
      event('SessionEnded', 1, 'other-gone', '2026-11-03T15:00:02.000Z', { reason: 'logout', transcriptPath: join(projects, 'gone.jsonl') }),
    ]);
    const ended = (await readAll(h)).find((e) => e.type === 'SessionEnded' && e.session === SESSION)!;
    const runner = await h.runner();
    await runner.catchUp();
    const first = lanes(h, runner);
    await first.start();
    expect(await first.round()).toBe(2);
    const captures = (await readAll(h)).filter((e) => e.type === 'TranscriptCaptured');
    expect(captures.map((e) => [e.session, e.id])).toEqual([
      [SESSION, `transcript:${contentHash(`${SESSION}\n${ended.id}`)}`],
      ['other-gone', expect.stringMatching(/^transcript:/)],
    ]);
    const data = defaultCatalog().readStored(captures[0]!).data as Record<string, any>;
    expect(data).toMatchObject({ transcriptPath, missing: false, lagging: true, cut: false, counts: { userTurns: 3, assistantTurns: 4, compactions: 1 } });
    expect(data.excerpt.endsWith(`All 14 webhook tests pass.\n\n${answer}`)).toBe(true);
    expect(JSON.stringify(data)).not.toContain('sk_live_');
    expect(defaultCatalog().readStored(captures[1]!).data).toMatchObject({ missing: true, excerpt: '', notes: ['no transcript at the path'] });

    // A crash before the cursor was saved: the same round again appends nothing new.
    const head = h.log.head;
    const again = await transcriptCaptureReactor().react(await directContext(h, 1, new AbortController().signal));
    expect(again.map((e) => e.id)).toEqual(captures.map((e) => e.id));
    const stored = await h.log.append(again);
    expect(stored).toMatchObject({ appended: [], duplicates: captures.map((e) => e.id) });
    expect(h.log.head).toBe(head);

    // A restarted worker resumes from its cursor: nothing is read twice.
    const restarted = lanes(h, runner);
    await restarted.start();
    expect(await restarted.round()).toBe(0);
    await h.close();
  });

  it('finds the Stop answer of an earlier round, reading back only when a session ended', async () => {
    const h = await projectionHarness(join(root, String(++n)));
    // Inside Claude Code's projects directory: a transcript anywhere else is not read.
    const dir = join(h.roots.claude, 'projects', '-home-dev-src-payments-api');
    mkdirSync(dir, { recursive: true });
    const transcriptPath = join(dir, 's-late.jsonl');
    writeFileSync(transcriptPath, JSON.stringify({ type: 'user', sessionId: 's-late', timestamp: '2026-11-03T10:00:00.000Z', message: { role: 'user', content: 'bump the version' } }) + '\n');
    const reads: Array<[number, number]> = [];
    const log = new Proxy(h.log, {
      get: (target, key) => (key === 'read' ? (o: { from: number; to: number }) => (reads.push([o.from, o.to]), target.read(o)) : Reflect.get(target, key, target)),
    });
    const round = async (from: number) => transcriptCaptureReactor().react({ ...(await directContext(h, from, new AbortController().signal)), log, to: h.log.head });
    await h.log.append([event('TurnStopped', 2, 's-late', '2026-11-03T10:00:09.000Z', { stopHookActive: false, answerChars: 21, answer: 'Bumped to 2.4.0. Done.' })]);
    expect(await round(1)).toEqual([]);
    expect(reads).toEqual([[1, 1]]);
    await h.log.append([event('SessionEnded', 1, 's-late', '2026-11-03T10:00:10.000Z', { reason: 'other', transcriptPath })]);
    const [capture] = await round(2);
    expect(reads).toEqual([[1, 1], [2, 2], [1, 2]]);
    expect(capture).toMatchObject({ session: 's-late', data: { lagging: true, excerpt: '[user]\nbump the version\n\n[assistant]\nBumped to 2.4.0. Done.' } });
    await h.close();
  });

  it('fits the distiller\'s transcript reader as it is', async () => {
    const capture: DistillerDeps['capture'] = (path) => captureTranscript(path);
    const fixture = await capture(join(repoRoot, 'fixtures', 'transcripts', `${SESSION}.jsonl`), SESSION);
    expect(fixture.excerpt).toContain('[REDACTED:stripe-key]');
    expect(await capture(undefined, 'no-path')).toMatchObject({ excerpt: '', notes: ['no transcript path'] });
  });

  it('gives up a round when the worker stops, and does it again next time', async () => {
    const h = await projectionHarness(join(root, String(++n)));
    await h.log.append([event('SessionEnded', 1, SESSION, '2026-11-03T14:07:20.000Z', { reason: 'other', transcriptPath: join(repoRoot, 'fixtures', 'transcripts', `${SESSION}.jsonl`) })]);
    const stop = new AbortController();
    stop.abort(new Error('the worker is stopping'));
    const run = transcriptCaptureReactor().react(await directContext(h, 1, stop.signal));
    await expect(run).rejects.toThrow('the worker is stopping');
    await h.close();
  });

  it('runs in the worker: hooks of a session, its transcript in the Claude config, one capture after a drain', async () => {
    const h = home();
    const projects = join(h.paths.claude, 'projects', '-home-dev-src-payments-api');
    cpSync(join(repoRoot, 'fixtures', 'transcripts'), projects, { recursive: true });
    const transcriptPath = join(projects, `${SESSION}.jsonl`);
    const input = { session_id: SESSION, transcript_path: transcriptPath, cwd: PROJECT };
    const answer = 'Added `retry-backoff.test.ts` (fake timers, checks the 1/2/4/8 s delays and the 5-attempt cap) and a CHANGELOG line under Unreleased. All 14 webhook tests pass.';
    for (const [hook, payload] of [
      ['SessionStart', { hook_event_name: 'SessionStart', source: 'startup' }],
      ['UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'Webhook retries time out after 30s in staging.' }],
      ['Stop', { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: answer }],
      ['SessionEnd', { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }],
    ] as const) {
      expect(await runHook(hook, { ...input, ...payload }, h.env)).toMatchObject({ code: 0, stdout: '' });
    }
    await drain(h.env);
    await drain(h.env);
    const captures = (await dumpLog(h.env)).filter((e) => e.type === 'TranscriptCaptured');
    expect(captures).toHaveLength(1);
    // The transcript already ends with the hook's answer: it is not added twice.
    expect(captures[0]).toMatchObject({ session: SESSION, project: PROJECT, data: { transcriptPath, missing: false, lagging: false } });
    expect(captures[0]!.data.excerpt.split('All 14 webhook tests pass.').length).toBe(2);
  });

  it('keeps every secret shape of the redaction corpus out of the Stop answer and the capture', async () => {
    const h = home();
    const dir = join(h.paths.claude, 'projects', '-home-dev-src-app');
    mkdirSync(dir, { recursive: true });
    const transcriptPath = join(dir, 'secrets.jsonl');
    const lines = secretCasePerShape.flatMap((c, i) => {
      const at = new Date(Date.UTC(2026, 10, 3, 10, 0, i)).toISOString();
      const common = { isSidechain: false, userType: 'external', cwd: '/home/dev/src/app', sessionId: 'secrets', version: '2.0.14', gitBranch: 'main', timestamp: at };
      return [
        JSON.stringify({ ...common, type: 'user', uuid: `u${i}`, message: { role: 'user', content: `case ${i}: ${c.text}` } }),
        JSON.stringify({ ...common, type: 'assistant', uuid: `a${i}`, message: { role: 'assistant', content: [{ type: 'text', text: `noted ${i}: ${c.text}` }] } }),
      ];
    });
    writeFileSync(transcriptPath, lines.join('\n') + '\n');
    const input = { session_id: 'secrets', transcript_path: transcriptPath, cwd: '/home/dev/src/app' };
    // The last answer, with every secret in it, as the Stop hook gets it; later than the file's.
    const answer = secretCasePerShape.map((c) => c.text).join('\n');
    expect((await runHook('Stop', { ...input, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: answer }, h.env)).code).toBe(0);
    expect((await runHook('SessionEnd', { ...input, hook_event_name: 'SessionEnd', reason: 'other' }, h.env)).code).toBe(0);
    await drain(h.env);
    const log = await dumpLog(h.env);
    const capture = log.find((e) => e.type === 'TranscriptCaptured');
    expect(capture?.data.counts).toMatchObject({ userTurns: secretCasePerShape.length, assistantTurns: secretCasePerShape.length });
    const stored = JSON.stringify(log);
    expect(stored).toContain('[REDACTED:');
    for (const c of secretCasePerShape) {
      for (const secret of c.secrets) {
        const width = Math.min(16, secret.length);
        for (let i = 0; i + width <= secret.length; i++) expect(stored.includes(secret.slice(i, i + width)), `${c.name}: ${secret.slice(i, i + width)}`).toBe(false);
      }
    }
  });
});
