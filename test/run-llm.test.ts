import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { llmAvailable } from '../src/distill/llm-available.js';
import { LlmRunner } from '../src/distill/llm-runner.js';
import { runLlm } from '../src/distill/run-llm.js';
import { distillerFromEnv } from '../src/reactors/distiller-from-env.js';
import { skillsFromEnv } from '../src/reactors/skills-from-env.js';
import { hookFiles, hooksDir, repoRoot, useTempHomes, type TempHome } from './support/temp-home.js';
import { processGone, waitUntil } from './support/wait-until.js';

const fakeLlm = join(repoRoot, 'fixtures', 'fake-llm', 'fake-llm.mjs');
const fakeCmd = `'${process.execPath}' '${fakeLlm}'`;

const home = useTempHomes();

/** A temp home whose ENGRAM_LLM_CMD is the fake LLM, with its side files under the temp root. */
function fakeHome(extra: NodeJS.ProcessEnv = {}): TempHome & { file(name: string): string } {
  const h = home();
  const file = (name: string) => join(h.root, name);
  Object.assign(h.env, {
    ENGRAM_LLM_CMD: fakeCmd,
    FAKE_LLM_CALLS: file('calls'),
    FAKE_LLM_LOG: file('log'),
    FAKE_LLM_PIDS: file('pids'),
    FAKE_LLM_ENV_OUT: file('env.json'),
    FAKE_LLM_LAST_PROMPT: file('prompt.txt'),
    ...extra,
  });
  return Object.assign(h, { file });
}

function calls(h: { file(name: string): string }): number {
  return existsSync(h.file('calls')) ? Number(readFileSync(h.file('calls'), 'utf8')) : 0;
}

function scratchEntries(h: TempHome): string[] {
  const dir = join(h.paths.home, 'scratch');
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe('runLlm', () => {
  it('gives the prompt on stdin and returns the answer, from a scratch directory it removes after', async () => {
    const h = fakeHome();
    const prompt = 'session sess-42: ünïcode and a long line '.repeat(2000);
    const result = await runLlm(prompt, { env: h.env });
    expect(result).toMatchObject({ ok: true, reason: 'ok', exitCode: 0, command: 'ENGRAM_LLM_CMD' });
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    expect(readFileSync(h.file('prompt.txt'), 'utf8')).toBe(prompt);
    const seen = JSON.parse(readFileSync(h.file('env.json'), 'utf8'));
    expect(seen.cwd.startsWith(join(h.paths.home, 'scratch', 'llm-'))).toBe(true);
    expect(existsSync(seen.cwd)).toBe(false);
    expect(scratchEntries(h)).toEqual([]);
  });

  it('counts each call in the fake command\'s counter', async () => {
    const h = fakeHome();
    expect(calls(h)).toBe(0);
    for (let i = 1; i <= 3; i++) {
      await runLlm(`prompt ${i}`, { env: h.env });
      expect(calls(h)).toBe(i);
    }
  });

  it('sets the recursion guard for the child, and a real engram hook inside it exits at once', async () => {
    const h = fakeHome();
    const payload = h.file('payload.json');
    writeFileSync(payload, JSON.stringify({ session_id: 'inner-1', cwd: '/home/dev/src/app', hook_event_name: 'UserPromptSubmit', prompt: 'hello from inside' }));
    const hook = join(hooksDir, hookFiles.UserPromptSubmit);
    // The inner "claude" runs a real hook, as Claude Code would on its own prompt, then answers.
    h.env.ENGRAM_LLM_CMD = `'${process.execPath}' '${hook}' < '${payload}' && ${fakeCmd}`;
    const result = await runLlm('distill this', { env: h.env });
    expect(result.ok).toBe(true);
    expect(JSON.parse(readFileSync(h.file('env.json'), 'utf8')).ENGRAM_DISTILLING).toBe('1');
    expect(existsSync(h.paths.spoolNew) ? readdirSync(h.paths.spoolNew) : []).toEqual([]);
    // The same hook without the guard does write its spool file: the check above means something.
    h.env.ENGRAM_LLM_CMD = `ENGRAM_DISTILLING= '${process.execPath}' '${hook}' < '${payload}' && ${fakeCmd}`;
    await runLlm('distill this', { env: h.env });
    expect(readdirSync(h.paths.spoolNew)).toHaveLength(1);
  });

  it('kills a hanging command and the child it started at the timeout', async () => {
    const h = fakeHome({ FAKE_LLM_MODE: 'hang' });
    const began = Date.now();
    const result = await runLlm('hang please', { env: h.env, timeoutMs: 1500, killGraceMs: 500 });
    expect(result).toMatchObject({ ok: false, reason: 'timeout', stdout: '' });
    expect(Date.now() - began).toBeLessThan(10_000);
    const pids: number[] = JSON.parse(readFileSync(h.file('pids'), 'utf8'));
    expect(pids).toHaveLength(2);
    expect(await waitUntil(() => pids.every(processGone), 5_000)).toBe(true);
    expect(scratchEntries(h)).toEqual([]);
  });

  it('sends SIGKILL after the grace when the group ignores SIGTERM', async () => {
    const h = fakeHome({ FAKE_LLM_MODE: 'hang', FAKE_LLM_IGNORE_TERM: '1' });
    const result = await runLlm('hang please', { env: h.env, timeoutMs: 1000, killGraceMs: 500 });
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    const pids: number[] = JSON.parse(readFileSync(h.file('pids'), 'utf8'));
    expect(await waitUntil(() => pids.every(processGone), 5_000)).toBe(true);
  });

  it('stops the run when its signal aborts, and starts nothing when it already has', async () => {
    const h = fakeHome({ FAKE_LLM_MODE: 'hang' });
    const controller = new AbortController();
    const running = runLlm('hang please', { env: h.env, signal: controller.signal, killGraceMs: 500 });
    expect(await waitUntil(() => existsSync(h.file('pids')), 20_000)).toBe(true);
    controller.abort();
    expect(await running).toMatchObject({ ok: false, reason: 'aborted' });
    const pids: number[] = JSON.parse(readFileSync(h.file('pids'), 'utf8'));
    expect(await waitUntil(() => pids.every(processGone), 5_000)).toBe(true);
    expect(calls(h)).toBe(1);
    expect(await runLlm('again', { env: h.env, signal: controller.signal })).toMatchObject({ ok: false, reason: 'aborted' });
    expect(calls(h)).toBe(1);
  });

  it('ends when the command has answered, even if something it started left its group holding stdout', async () => {
    const h = fakeHome();
    const escaped = h.file('escaped.pid');
    h.env.ENGRAM_LLM_CMD = `setsid sh -c 'echo $$ > "${escaped}"; exec sleep 60' & ${fakeCmd}`;
    try {
      const began = Date.now();
      const result = await runLlm('x', { env: h.env, timeoutMs: 30_000, killGraceMs: 500 });
      expect(result).toMatchObject({ ok: true, reason: 'ok' });
      expect(JSON.parse(result.stdout).type).toBe('result');
      expect(Date.now() - began).toBeLessThan(15_000);
    } finally {
      if (await waitUntil(() => existsSync(escaped), 5_000)) process.kill(Number(readFileSync(escaped, 'utf8')), 'SIGKILL');
    }
  });

  it('reports a nonzero exit with its stderr, a missing command, and a flood of stdout, without throwing', async () => {
    const h = fakeHome({ FAKE_LLM_MODE: 'exit-nonzero' });
    const failed = await runLlm('x', { env: h.env });
    expect(failed).toMatchObject({ ok: false, reason: 'exit-nonzero', exitCode: 3 });
    expect(failed.stderr).toContain('failing as asked');

    const missing = await runLlm('x', { env: { ...h.env, ENGRAM_LLM_CMD: '', PATH: join(h.root, 'empty-bin') } });
    expect(missing).toMatchObject({ ok: false, reason: 'spawn-failed', command: 'claude' });
    expect(missing.stderr).toMatch(/ENOENT/);

    const flood = await runLlm('x', { env: { ...h.env, ENGRAM_LLM_CMD: `'${process.execPath}' -e "for(;;) process.stdout.write('y'.repeat(65536))"` }, maxStdoutBytes: 100_000 });
    expect(flood).toMatchObject({ ok: false, reason: 'stdout-too-large' });
    expect(flood.stdout.length).toBe(100_000);
    expect(scratchEntries(h)).toEqual([]);
  });

  it('runs the default command as argv: claude -p --model haiku … with an empty --tools', async () => {
    const h = fakeHome();
    const bin = join(h.root, 'bin');
    mkdirSync(bin);
    const argsOut = h.file('argv.json');
    // A stand-in `claude` on PATH that records its argv and answers as the fake does.
    writeFileSync(
      join(bin, 'claude'),
      `#!/bin/sh\n'${process.execPath}' -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))' '${argsOut}' "$@"\nexec ${fakeCmd}\n`,
      { mode: 0o755 },
    );
    const env = { ...h.env, ENGRAM_LLM_CMD: '', PATH: `${bin}:/usr/bin:/bin` };
    expect(llmAvailable(env)).toBe(true);
    const result = await runLlm('x', { env });
    expect(result).toMatchObject({ ok: true, command: 'claude' });
    expect(JSON.parse(readFileSync(argsOut, 'utf8'))).toEqual([
      '-p', '--model', 'haiku', '--output-format', 'json', '--tools', '', '--strict-mcp-config', '--no-session-persistence',
    ]);
  });
});

describe('llmAvailable', () => {
  it('is true with ENGRAM_LLM_CMD set or claude on PATH, false otherwise', () => {
    const h = home();
    const bin = join(h.root, 'bin');
    mkdirSync(bin);
    expect(llmAvailable({ PATH: bin })).toBe(false);
    expect(llmAvailable({ PATH: bin, ENGRAM_LLM_CMD: '  ' })).toBe(false);
    expect(llmAvailable({ PATH: bin, ENGRAM_LLM_CMD: 'my-llm' })).toBe(true);
    writeFileSync(join(bin, 'claude'), 'not executable', { mode: 0o644 });
    expect(llmAvailable({ PATH: bin })).toBe(false);
    chmodSync(join(bin, 'claude'), 0o755);
    expect(llmAvailable({ PATH: `/nonexistent:${bin}` })).toBe(true);
  });
});

describe('LlmRunner', () => {
  it('never runs two at once, and runs them all in order', async () => {
    const h = fakeHome({ FAKE_LLM_DELAY_MS: '100' });
    const runner = new LlmRunner({ env: h.env });
    const results = await Promise.all([1, 2, 3, 4].map((i) => runner.run(`prompt ${i}`)));
    expect(results.map((r) => r.reason)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const lines = readFileSync(h.file('log'), 'utf8').trim().split('\n').map((line) => line.split(' '));
    expect(lines.map(([what]) => what)).toEqual(['start', 'end', 'start', 'end', 'start', 'end', 'start', 'end']);
    // Each run started after the one before it ended.
    for (let i = 2; i < lines.length; i += 2) expect(Number(lines[i]![2])).toBeGreaterThanOrEqual(Number(lines[i - 1]![2]));
    expect(calls(h)).toBe(4);
  });

  it('with ENGRAM_AUDIT=1, the distiller and the post-turn audit wait in the one queue: their calls never overlap', async () => {
    const h = fakeHome({ FAKE_LLM_DELAY_MS: '100', ENGRAM_AUDIT: '1', ENGRAM_DISTILLER: '' });
    const distiller = distillerFromEnv(h.env, h.paths)!.deps.llm!;
    const audit = skillsFromEnv(h.env, h.paths).audit!.llm;
    const signal = new AbortController().signal;
    const results = await Promise.all([distiller.run('distill 1', signal), audit.run('audit 1', signal), distiller.run('distill 2', signal), audit.run('audit 2', signal)]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
    const lines = readFileSync(h.file('log'), 'utf8').trim().split('\n').map((line) => line.split(' '));
    expect(lines.map(([what]) => what)).toEqual(['start', 'end', 'start', 'end', 'start', 'end', 'start', 'end']);
    // A second runner made elsewhere in the process waits in the same queue.
    const other = new LlmRunner({ env: h.env });
    const both = await Promise.all([other.run('other'), distiller.run('distill 3', signal)]);
    expect([both[0].reason, both[1].ok]).toEqual(['ok', true]);
    const after = readFileSync(h.file('log'), 'utf8').trim().split('\n').map((line) => line.split(' ')[0]);
    expect(after.slice(8)).toEqual(['start', 'end', 'start', 'end']);
  });

  it('takes an aborted run out of the queue before it starts, and stops the one running', async () => {
    const h = fakeHome({ FAKE_LLM_MODE: 'hang' });
    const runner = new LlmRunner({ env: h.env, killGraceMs: 500 });
    const first = new AbortController();
    const second = new AbortController();
    const running = runner.run('first', { signal: first.signal });
    const waiting = runner.run('second', { signal: second.signal });
    expect(await waitUntil(() => existsSync(h.file('pids')), 20_000)).toBe(true);
    expect(runner.running).toBe(1);
    expect(runner.waiting).toBe(1);
    second.abort();
    expect(await waiting).toMatchObject({ ok: false, reason: 'aborted' });
    first.abort();
    expect(await running).toMatchObject({ ok: false, reason: 'aborted' });
    await runner.onIdle();
    expect(calls(h)).toBe(1);
  });

  it('starts the next run only once an aborted one\'s process group is gone', async () => {
    const h = fakeHome({ FAKE_LLM_IGNORE_TERM: '1' });
    const answers = h.file('answers.json');
    writeFileSync(answers, JSON.stringify({ 'first run': { mode: 'hang' } }));
    h.env.FAKE_LLM_ANSWERS = answers;
    // exec: the fake itself leads the group (a shell leader dying of SIGTERM would end it early).
    h.env.ENGRAM_LLM_CMD = `exec ${fakeCmd}`;
    const runner = new LlmRunner({ env: h.env, killGraceMs: 600 });
    const controller = new AbortController();
    const first = runner.run('first run', { signal: controller.signal });
    const second = runner.run('second run');
    expect(await waitUntil(() => existsSync(h.file('pids')), 20_000)).toBe(true);
    const abortedAt = Date.now();
    controller.abort();
    expect(await first).toMatchObject({ reason: 'aborted' });
    expect(await second).toMatchObject({ reason: 'ok' });
    const starts = readFileSync(h.file('log'), 'utf8').trim().split('\n').filter((line) => line.startsWith('start'));
    expect(starts).toHaveLength(2);
    // The hanging group ignores SIGTERM, so it lives until SIGKILL, a grace after the abort.
    expect(Number(starts[1]!.split(' ')[2])).toBeGreaterThanOrEqual(abortedAt + 500);
  });

  it('times a run from its start, not from when it was queued', async () => {
    // Six runs of at least 300 ms each outlast one run's timeout; one run (a shell, a node start
    // and the delay) stays well inside it.
    const h = fakeHome({ FAKE_LLM_DELAY_MS: '300' });
    const runner = new LlmRunner({ env: h.env, timeoutMs: 1_500 });
    const began = Date.now();
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => runner.run(`prompt ${i}`)));
    // Together they took longer than one run's timeout, and none timed out.
    expect(Date.now() - began).toBeGreaterThan(1_500);
    expect(results.map((r) => r.reason)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
  });
});
