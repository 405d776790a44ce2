import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMemoryFile } from '../src/memories/memory-file.js';
import { projectMemoryDir } from '../src/paths.js';
import { runHookHere } from './support/hook-here.js';
import { cliHere, drain, dumpLog, repoRoot, runHook, tempHome, type TempHome, walkFiles } from './support/temp-home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

const oldRule = { name: 'Deploy with make deploy', description: 'run make deploy from a laptop to ship', body: 'make deploy' };
const pnpm = { type: 'feedback', name: 'Install with pnpm', description: 'use pnpm, not npm, to install packages in this repo', body: 'npm breaks the lockfile.', destination: 'memory' };
const ciOnly = {
  type: 'project', name: 'Deploys go through CI only', description: 'ship through the deploy workflow in CI, never from a laptop',
  body: 'The deploy workflow ships.', contradicts: ['Deploy with make deploy'], destination: 'memory',
};
/** What the fake LLM answers, by a word each session's prompts carry. */
const answers = {
  'marker-alpha': { episode: { name: 'Set up installs and CI deploys', description: 'moved installs to pnpm, deploys to CI', body: 'pnpm; CI deploys.' }, candidates: [pnpm, ciOnly] },
  'marker-charlie': { mode: 'hang' },
  'marker-bravo': { episode: { name: 'Shipped the payouts report', description: 'the payouts report shipped through CI', body: 'Payouts.' }, candidates: [{ ...pnpm, name: 'pnpm for installs' }, { ...ciOnly, name: 'CI-only deploys' }] },
};

/**
 * One session through the real hooks: a transcript in Claude Code's format, three prompts, five
 * tool calls, an end. `processes`: each hook a process of its own, as Claude Code runs them (the
 * first session of the file); else each built hook bundle run in this process
 * (test/support/hook-here.ts), the same parsing, redaction and spool file without ten node starts.
 */
async function session(h: TempHome, project: string, id: string, marker: string, day: string, through: 'processes' | 'here' = 'here'): Promise<void> {
  // Where Claude Code keeps transcripts: one anywhere else is not read.
  const transcript = join(h.paths.claude, 'projects', 'e2e', `${id}.jsonl`);
  mkdirSync(join(h.paths.claude, 'projects', 'e2e'), { recursive: true });
  const at = (minute: number) => `${day}T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const prompts = [`set up the ${marker} work`, `continue the ${marker} work please`, `finish ${marker} and commit`];
  const lines = prompts.flatMap((prompt, i) => [
    { type: 'user', uuid: `${id}-u${i}`, parentUuid: i === 0 ? null : `${id}-a${i - 1}`, sessionId: id, timestamp: at(i * 2 + 1), cwd: project, version: '2.1.3', gitBranch: 'main', isSidechain: false, userType: 'external', message: { role: 'user', content: prompt } },
    { type: 'assistant', uuid: `${id}-a${i}`, parentUuid: `${id}-u${i}`, sessionId: id, timestamp: at(i * 2 + 2), cwd: project, version: '2.1.3', gitBranch: 'main', isSidechain: false, message: { role: 'assistant', content: [{ type: 'text', text: `Done with step ${i} of ${marker}.` }] } },
  ]);
  writeFileSync(transcript, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const base = { session_id: id, cwd: project, transcript_path: transcript };
  const hook = async (name: Parameters<typeof runHook>[0], payload: object, minute: number) => {
    const env = { ...h.env, ENGRAM_NOW: at(minute) };
    if (through === 'here') return runHookHere(name, { ...base, hook_event_name: name, ...payload }, env);
    const result = await runHook(name, { ...base, hook_event_name: name, ...payload }, env);
    expect(result.code).toBe(0);
  };
  await hook('SessionStart', { source: 'startup' }, 0);
  for (const [i, prompt] of prompts.entries()) await hook('UserPromptSubmit', { prompt }, i * 2 + 1);
  for (let i = 0; i < 5; i++) await hook('PostToolUse', { tool_name: 'Edit', tool_input: { file_path: join(project, `src/step-${i}.ts`) }, tool_response: {} }, 7 + i);
  await hook('SessionEnd', { reason: 'prompt_input_exit' }, 20);
  // A hook exits 0 whatever happens; what went wrong would be a line in hooks.log.
  expect(existsSync(h.paths.hooksLog) ? readFileSync(h.paths.hooksLog, 'utf8') : '').toBe('');
}

describe('the distiller, end to end through hooks, the worker and a fake LLM command', () => {
  it('promotes a candidate a second session says again, retires a contradicted memory only then, and a rebuild calls no LLM and writes the same bytes', async () => {
    const h = tempHome();
    homes.push(h);
    const project = join(h.root, 'payments');
    mkdirSync(project);
    const calls = join(h.root, 'llm-calls');
    const answersFile = join(h.root, 'answers.json');
    writeFileSync(answersFile, JSON.stringify(answers));
    const env = {
      ...h.env,
      ENGRAM_DISTILLER: '',
      ENGRAM_LLM_CMD: `${process.execPath} ${join(repoRoot, 'fixtures', 'fake-llm', 'fake-llm.mjs')}`,
      FAKE_LLM_ANSWERS: answersFile,
      FAKE_LLM_CALLS: calls,
    };
    const dir = join(h.paths.claude, projectMemoryDir(project));
    const file = (name: string) => parseMemoryFile(readFileSync(join(dir, name), 'utf8'), name);
    const llmCalls = () => Number(readFileSync(calls, 'utf8'));

    // A memory the user wrote by hand earlier, which the distilled one will say is wrong.
    mkdirSync(h.paths.spoolNew, { recursive: true });
    writeFileSync(join(h.paths.spoolNew, '1700000000000000-1-00000001.json'), JSON.stringify({
      id: 'seed-old-rule-000001', type: 'MemoryProposed', schemaVersion: 1, ts: '2026-11-01T09:00:00.000Z', session: '', project,
      data: { memoryId: 'm-old', origin: 'user', scope: 'project', ...oldRule, type: 'project', status: 'active', confidence: 0.8 },
    }));

    await session(h, project, 'sess-alpha', 'marker-alpha', '2026-11-02', 'processes');
    await drain({ ...env, ENGRAM_NOW: '2026-11-02T11:00:00.000Z' });
    expect(llmCalls()).toBe(1);
    expect(file('set-up-installs-and-ci-deploys.md')).toMatchObject({ status: 'active', tier: 'episodic' });
    expect(file('install-with-pnpm.md')).toMatchObject({ status: 'provisional', confidence: 0.3 });
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).not.toContain('install-with-pnpm.md');
    await cliHere(['maintain', '--now', '2026-11-03T00:00:00.000Z'], env);
    expect(file('deploy-with-make-deploy.md')).toMatchObject({ status: 'active' });

    await session(h, project, 'sess-bravo', 'marker-bravo', '2026-11-05');
    await drain({ ...env, ENGRAM_NOW: '2026-11-05T11:00:00.000Z' });
    expect(llmCalls()).toBe(2);
    expect(file('install-with-pnpm.md')).toMatchObject({ status: 'active', confidence: 0.4, reinforced: 1 });
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toContain('install-with-pnpm.md');
    const maintained = await cliHere(['maintain', '--now', '2026-11-06T00:00:00.000Z'], env);
    expect(maintained.code, maintained.stderr).toBe(0);
    expect(readFileSync(join(dir, '_archive', 'deploy-with-make-deploy.md'), 'utf8')).toContain('superseded_by: Deploys go through CI only');

    const types = (await dumpLog(env)).map((event) => event.type);
    expect(types.filter((type) => type === 'TranscriptCaptured')).toHaveLength(2);
    expect(types.filter((type) => type === 'DistillCompleted')).toHaveLength(2);

    // A command that hangs is killed at its timeout; the drain (the worker) goes on and ends.
    await session(h, project, 'sess-charlie', 'marker-charlie', '2026-11-07');
    await drain({ ...env, ENGRAM_NOW: '2026-11-07T11:00:00.000Z', ENGRAM_LLM_TIMEOUT_MS: '1500' });
    const failed = (await dumpLog(env)).filter((event) => event.type === 'DistillFailed');
    expect(failed.map((event) => [event.session, event.data.reason, event.data.final])).toEqual([['sess-charlie', 'timeout', false]]);
    const doctor = await cliHere(['doctor'], { ...env, ENGRAM_LLM_CMD: '' });
    expect(doctor.stdout).toContain('- distillation by an LLM is off');

    const before = walkFiles(h.paths.claude, h.paths.views);
    const rebuilt = await cliHere(['rebuild'], env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(llmCalls()).toBe(3);
    expect(walkFiles(h.paths.claude, h.paths.views)).toEqual(before);
  });
});

describe('say what is true: an episode written from the trace is labelled so, and never replaces a richer one', () => {
  it('no LLM: the episode counts the whole session, SessionStart, distill and the trace view say "from the trace", and distilling again changes nothing', { timeout: 300_000 }, async () => {
    const h = tempHome();
    homes.push(h);
    const project = join(h.root, 'payments');
    mkdirSync(project);
    // No LLM anywhere: no llmCommand, and no `claude` on PATH.
    const env = { ...h.env, ENGRAM_DISTILLER: '', ENGRAM_LLM_CMD: '', PATH: dirname(process.execPath) };
    const dir = join(h.paths.claude, projectMemoryDir(project));
    await session(h, project, 'sess-trace', 'marker-trace', '2026-11-02');
    // Ingested, not distilled yet: distilled by hand, as a user would.
    await drain({ ...env, ENGRAM_DISTILLER: 'off' });
    const first = await cliHere(['distill', '--session', 'sess-trace'], { ...env, ENGRAM_NOW: '2026-11-02T11:00:00.000Z' });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^episode written from the trace alone \(no LLM: /);
    const episodeFile = () => readFileSync(join(dir, 'session-2026-11-02-in-payments.md'), 'utf8');
    expect(episodeFile()).toContain('3 prompts, 5 tool calls');
    expect(episodeFile()).toContain('(from the trace; no LLM)');

    const again = await cliHere(['distill', '--session', 'sess-trace'], { ...env, ENGRAM_NOW: '2026-11-02T12:00:00.000Z' });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^not distilled again: nothing new since its episode was written from the trace/);
    expect(episodeFile()).toContain('3 prompts, 5 tool calls');
    // A rebuild replays what was recorded: still the whole session.
    expect((await cliHere(['rebuild'], env)).code).toBe(0);
    expect(episodeFile()).toContain('3 prompts, 5 tool calls');

    const trace = JSON.parse(readFileSync(join(h.paths.views, 'trace', `${projectMemoryDir(project).split('/')[1]}.json`), 'utf8')) as { line: string; sessions: Array<{ distilledVia: string | null }> };
    expect(trace.sessions[0]!.distilledVia).toBe('trace');
    expect(trace.line).toBe('last session: 5 tool calls · episode from the trace only (no LLM)');
    const start = await runHook('SessionStart', { session_id: 'next', cwd: project, transcript_path: join(h.root, 'next.jsonl'), hook_event_name: 'SessionStart', source: 'startup' }, env);
    expect(start.stdout).toContain('last session: 5 tool calls · episode from the trace only (no LLM)');
    expect(start.stdout).not.toContain('distilled ✓');
  });

  it('an episode the LLM wrote is kept when the session is distilled again without an LLM', { timeout: 300_000 }, async () => {
    const h = tempHome();
    homes.push(h);
    const project = join(h.root, 'payments');
    mkdirSync(project);
    const answersFile = join(h.root, 'answers.json');
    writeFileSync(answersFile, JSON.stringify(answers));
    const withLlm = { ...h.env, ENGRAM_DISTILLER: '', ENGRAM_LLM_CMD: `${process.execPath} ${join(repoRoot, 'fixtures', 'fake-llm', 'fake-llm.mjs')}`, FAKE_LLM_ANSWERS: answersFile, FAKE_LLM_CALLS: join(h.root, 'calls') };
    await session(h, project, 'sess-alpha', 'marker-alpha', '2026-11-02');
    await drain({ ...h.env, ENGRAM_DISTILLER: 'off' });
    const distilled = await cliHere(['distill', '--session', 'sess-alpha'], { ...withLlm, ENGRAM_NOW: '2026-11-02T11:00:00.000Z' });
    expect(distilled.stdout).toMatch(/^distilled sess-alpha by the LLM: /);
    const episode = join(h.paths.claude, projectMemoryDir(project), 'set-up-installs-and-ci-deploys.md');
    const before = readFileSync(episode, 'utf8');
    const without = await cliHere(['distill', '--session', 'sess-alpha'], { ...h.env, ENGRAM_DISTILLER: '', ENGRAM_LLM_CMD: '', PATH: dirname(process.execPath), ENGRAM_NOW: '2026-11-02T12:00:00.000Z' });
    expect(without.stdout).toMatch(/^not distilled again: kept the episode the LLM wrote/);
    expect(readFileSync(episode, 'utf8')).toBe(before);
  });
});
