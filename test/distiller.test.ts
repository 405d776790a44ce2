import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/clock.js';
import { buildDistillPrompt } from '../src/distill/distill-prompt.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { DistillAnswer } from '../src/events/distill-events.js';
import type { Envelope } from '../src/events/envelope.js';
import { parseMemoryFile } from '../src/memories/memory-file.js';
import { projectMemoryDir, resolvePaths } from '../src/paths.js';
import { FAILED } from '../src/projections/distill/distill-queue.js';
import { redactText } from '../src/redaction/redact.js';
import { ReactorRunner } from '../src/engine/reactor-runner.js';
import { distillerReactor, type DistillerDeps, type LlmOutcome } from '../src/reactors/distiller.js';
import { projectionHarness, type Harness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-distiller-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const project = '/home/dev/src/payments';
const dir = projectMemoryDir(project);

class MovableClock implements Clock {
  current: Date;
  constructor(iso: string) {
    this.current = new Date(iso);
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

let seq = 0;
const hook = (session: string, type: string, data: unknown, ts: string): Envelope => ({
  id: `evt-distiller-${String(++seq).padStart(6, '0')}`, type, schemaVersion: type === 'PromptSubmitted' ? 2 : 1, ts, session, project, data,
});

/** A session of `prompts` prompts and `tools` tool calls from `start`, one a minute, ended or not. */
function session(id: string, start: string, prompts: number, tools: number, ended: boolean): Envelope[] {
  const t0 = Date.parse(start);
  const at = (i: number) => new Date(t0 + i * 60_000).toISOString();
  const events = [hook(id, 'SessionStarted', { source: 'startup', transcriptPath: `/nowhere/${id}.jsonl` }, at(0))];
  for (let i = 0; i < prompts; i++) events.push(hook(id, 'PromptSubmitted', { prompt: `prompt ${i} about refunds`, chars: 20, truncated: false }, at(1 + i)));
  for (let i = 0; i < tools; i++) events.push(hook(id, 'ToolCalled', { tool: i % 2 ? 'Bash' : 'Edit', input: i % 2 ? 'npm test' : `src/refund-${i}.ts`, ok: true }, at(1 + prompts + i)));
  if (ended) events.push(hook(id, 'SessionEnded', { reason: 'prompt_input_exit', transcriptPath: `/nowhere/${id}.jsonl` }, at(2 + prompts + tools)));
  return events;
}

const answer = (name: string): DistillAnswer => ({
  episode: { name, description: `the session: ${name}`, body: `${name}.` },
  candidates: [{ type: 'feedback', name: 'Install with pnpm', description: 'use pnpm, not npm, to install packages', body: 'npm breaks the lockfile.' }],
});

interface FakeLlm {
  calls: string[];
  next: Array<LlmOutcome | 'hang'>;
}

function deps(llm: FakeLlm | undefined): DistillerDeps {
  return {
    capture: async (path, id) => ({ excerpt: `user: fix the refunds (${id})`, notes: path ? [] : ['no transcript path'] }),
    llm: llm && {
      run: (prompt, signal) => {
        llm.calls.push(prompt);
        const outcome = llm.next.shift() ?? { ok: true, stdout: JSON.stringify(answer('Fixed refunds')) };
        if (outcome !== 'hang') return Promise.resolve(outcome);
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, reason: 'aborted', detail: 'stopped' })));
      },
    },
    prompt: (inputs) => buildDistillPrompt({ transcript: inputs.excerpt, trace: inputs.trace, index: inputs.index }),
    parse: (stdout) => {
      try {
        return { ok: true, answer: JSON.parse(stdout) as DistillAnswer, notes: [] };
      } catch (err) {
        return { ok: false, reason: 'not-json', detail: String(err) };
      }
    },
    redact: redactText,
  };
}

async function setUp(llm: FakeLlm | undefined, clock: MovableClock) {
  const h = await projectionHarness(join(root, String(++n)));
  const runner = await h.runner({ clock });
  const lanes = () => {
    const r = new ReactorRunner({
      log: h.log, catalog: defaultCatalog(), runner, store: h.store, paths: resolvePaths({ ENGRAM_HOME: join(h.dir, 'home'), CLAUDE_CONFIG_DIR: h.roots.claude }),
      clock, reactors: [distillerReactor(deps(llm))],
    });
    return r;
  };
  let reactors = lanes();
  await reactors.start();
  return {
    h,
    runner,
    /** Folds what is in the log, runs one distiller round, and folds what it recorded. */
    async round() {
      await runner.catchUp();
      await reactors.round();
      await runner.catchUp();
    },
    async restart() {
      reactors = lanes();
      await reactors.start();
    },
    get reactors() {
      return reactors;
    },
  };
}

async function typesOf(h: Harness): Promise<string[]> {
  const types: string[] = [];
  for await (const batch of h.log.read()) for (const event of batch) if (event.type.startsWith('Distill')) types.push(`${event.type}:${event.session}`);
  return types;
}

describe('the distiller', () => {
  it('distills an ended session once, skips a trivial one, waits for a live one until it has been idle an hour', async () => {
    const clock = new MovableClock('2026-11-02T12:00:00.000Z');
    const llm: FakeLlm = { calls: [], next: [] };
    const t = await setUp(llm, clock);
    await t.h.log.append([
      ...session('ended', '2026-11-02T10:00:00.000Z', 3, 4, true),
      ...session('tiny', '2026-11-02T10:30:00.000Z', 1, 2, true),
      ...session('live', '2026-11-02T11:40:00.000Z', 4, 6, false),
    ]);
    await t.round();
    await t.round();
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]).toMatch(/src\/refund-0\.ts[\s\S]*src\/refund-2\.ts/);
    expect(llm.calls[0]).toContain('user: fix the refunds (ended)');
    expect(await typesOf(t.h)).toEqual(['DistillRequested:ended', 'DistillCompleted:ended', 'DistillSkipped:tiny']);
    const index = readFileSync(join(t.h.roots.claude, dir, 'MEMORY.md'), 'utf8');
    expect(index).toContain('fixed-refunds.md');
    expect(parseMemoryFile(readFileSync(join(t.h.roots.claude, dir, 'install-with-pnpm.md'), 'utf8'), 'x.md')).toMatchObject({ status: 'provisional' });

    const trace = () => JSON.parse(readFileSync(join(t.h.roots.views, 'trace', '-home-dev-src-payments.json'), 'utf8')) as { line: string; sessions: Array<{ session: string; distilled: boolean }> };
    expect(trace().sessions.map((s) => [s.session, s.distilled])).toEqual([['live', false], ['tiny', true], ['ended', true]]);
    clock.advance(2 * 3600_000);
    await t.round();
    expect(trace().line).toContain('distilled ✓');
    expect(llm.calls).toHaveLength(2);
    expect((await typesOf(t.h)).slice(3)).toEqual(['DistillRequested:live', 'DistillCompleted:live']);
    // The second session said the same candidate: it is corroborated.
    expect(parseMemoryFile(readFileSync(join(t.h.roots.claude, dir, 'install-with-pnpm.md'), 'utf8'), 'x.md')).toMatchObject({ status: 'active', reinforced: 1 });
    await t.h.close();
  });

  it('distills a session split by an idle hour: 2 prompts, 2 hours idle, 2 more, end (a skip does not reset the count)', async () => {
    const clock = new MovableClock('2026-11-02T12:00:00.000Z');
    const llm: FakeLlm = { calls: [], next: [] };
    const t = await setUp(llm, clock);
    await t.h.log.append(session('split', '2026-11-02T10:00:00.000Z', 2, 0, false));
    await t.round();
    expect(await typesOf(t.h)).toEqual(['DistillSkipped:split']);
    const resumed = session('split', '2026-11-02T12:00:00.000Z', 2, 0, true).slice(1);
    await t.h.log.append(resumed);
    // Past the minute the transcript capture is given after an end.
    clock.advance(10 * 60_000);
    await t.round();
    expect(llm.calls).toHaveLength(1);
    expect(await typesOf(t.h)).toEqual(['DistillSkipped:split', 'DistillRequested:split', 'DistillCompleted:split']);
    await t.h.close();
  });

  it('retries a failed run once, after a pause, then marks the session failed and calls no more', async () => {
    const clock = new MovableClock('2026-11-02T12:00:00.000Z');
    const llm: FakeLlm = { calls: [], next: [{ ok: false, reason: 'timeout', detail: 'killed after 120 s' }, { ok: true, stdout: 'Sorry, I cannot help with that.' }] };
    const t = await setUp(llm, clock);
    await t.h.log.append(session('flaky', '2026-11-02T10:00:00.000Z', 5, 5, true));
    await t.round();
    await t.round();
    expect(llm.calls).toHaveLength(1);
    clock.advance(11 * 60_000);
    await t.round();
    clock.advance(11 * 60_000);
    await t.round();
    expect(llm.calls).toHaveLength(2);
    expect(await typesOf(t.h)).toEqual(['DistillRequested:flaky', 'DistillFailed:flaky', 'DistillRequested:flaky', 'DistillFailed:flaky']);
    const failed = (await t.runner.rowsOf('distill').get(FAILED)) as { latest: Array<{ session: string; reason: string }> };
    expect(failed.latest).toEqual([expect.objectContaining({ session: 'flaky', reason: 'not-json' })]);
    await t.h.close();
  });

  it('gives up a run when the worker stops, records nothing for it but the request, and asks again next time, storing the request once', async () => {
    const clock = new MovableClock('2026-11-02T12:00:00.000Z');
    const llm: FakeLlm = { calls: [], next: ['hang'] };
    const t = await setUp(llm, clock);
    await t.h.log.append(session('stopped', '2026-11-02T10:00:00.000Z', 5, 5, true));
    await t.runner.catchUp();
    const running = t.reactors.round();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(llm.calls).toHaveLength(1);
    t.reactors.abort();
    await running;
    await t.restart();
    await t.round();
    expect(llm.calls).toHaveLength(2);
    expect(await typesOf(t.h)).toEqual(['DistillRequested:stopped', 'DistillCompleted:stopped']);
    await t.h.close();
  });

  it('without an LLM, writes a plain episode from the trace', async () => {
    const clock = new MovableClock('2026-11-02T12:00:00.000Z');
    const t = await setUp(undefined, clock);
    await t.h.log.append(session('offline', '2026-11-02T10:00:00.000Z', 3, 6, true));
    await t.round();
    const file = readFileSync(join(t.h.roots.claude, dir, 'session-2026-11-02-in-payments.md'), 'utf8');
    expect(file).toContain('- src/refund-4.ts');
    expect(file).toContain('- `npm test`');
    expect(await typesOf(t.h)).toEqual(['DistillRequested:offline', 'DistillCompleted:offline']);
    await t.h.close();
  });

  it('distills a resumed session again into the same episode, updated', async () => {
    const clock = new MovableClock('2026-11-02T12:00:00.000Z');
    const llm: FakeLlm = { calls: [], next: [{ ok: true, stdout: JSON.stringify(answer('Fixed refunds')) }, { ok: true, stdout: JSON.stringify(answer('Fixed refunds and payouts')) }] };
    const t = await setUp(llm, clock);
    await t.h.log.append(session('resumed', '2026-11-02T10:00:00.000Z', 3, 5, true));
    await t.round();
    expect(existsSync(join(t.h.roots.claude, dir, 'fixed-refunds.md'))).toBe(true);
    await t.h.log.append(session('resumed', '2026-11-02T13:00:00.000Z', 3, 5, true));
    clock.advance(2 * 3600_000);
    await t.round();
    expect(llm.calls).toHaveLength(2);
    const episode = parseMemoryFile(readFileSync(join(t.h.roots.claude, dir, 'fixed-refunds.md'), 'utf8'), 'x.md');
    expect(episode).toMatchObject({ name: 'Fixed refunds and payouts', tier: 'episodic', status: 'active' });
    await t.h.close();
  });
});

describe('engram distill --session', () => {
  it('asks again each time it is run, and each answer is recorded', async () => {
    const clock = new MovableClock('2026-11-02T12:00:00.000Z');
    const llm: FakeLlm = { calls: [], next: [] };
    const t = await setUp(llm, clock);
    await t.h.log.append(session('again', '2026-11-02T10:00:00.000Z', 3, 5, true));
    await t.round();
    for (let i = 0; i < 2; i++) {
      await t.reactors.runOnce(distillerReactor(deps(llm), { only: 'again' }));
      await t.runner.catchUp();
    }
    expect(llm.calls).toHaveLength(3);
    expect((await typesOf(t.h)).filter((type) => type === 'DistillCompleted:again')).toHaveLength(3);
    await t.h.close();
  });
});

it('takes a backlog oldest first and, with pauseMs, waits between LLM calls; a stop during the wait leaves the rest for the next round', async () => {
  const clock = new MovableClock('2026-11-02T12:00:00.000Z');
  const h = await projectionHarness(join(root, String(++n)));
  const runner = await h.runner({ clock });
  let reactors: ReactorRunner;
  const llm: FakeLlm = { calls: [], next: [] };
  const base = deps(llm);
  const lanes = (pauseMs: number) => new ReactorRunner({
    log: h.log, catalog: defaultCatalog(), runner, store: h.store, paths: resolvePaths({ ENGRAM_HOME: join(h.dir, 'home'), CLAUDE_CONFIG_DIR: h.roots.claude }), clock,
    // The worker stops while the distiller waits after its first call.
    reactors: [distillerReactor({ ...base, llm: { run: async (prompt, signal) => (setTimeout(() => reactors.abort(), 20), base.llm!.run(prompt, signal)) } }, { pauseMs })],
  });
  // Appended newest first: the queue's order is not the order they happened in.
  await h.log.append([...session('newer', '2026-11-02T09:00:00.000Z', 3, 5, true), ...session('older', '2026-11-01T09:00:00.000Z', 3, 5, true)]);
  await runner.catchUp();
  reactors = lanes(60_000);
  await reactors.start();
  await reactors.round();
  await runner.catchUp();
  expect(llm.calls).toHaveLength(1);
  expect(await typesOf(h)).toEqual(['DistillRequested:older', 'DistillCompleted:older']);
  // The next worker takes up the rest.
  reactors = lanes(0);
  await reactors.start();
  await reactors.round();
  await runner.catchUp();
  expect(await typesOf(h)).toEqual(['DistillRequested:older', 'DistillCompleted:older', 'DistillRequested:newer', 'DistillCompleted:newer']);
  await h.close?.();
});
