import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINTER_CAP, PROMPT_CAP } from '../src/events/hook-events.js';
import { benignCases, secretCasePerShape, writtenBenignCases, type SecretCase } from './redaction-corpus.js';
import { runHookHere } from './support/hook-here.js';
import { drain, dumpLog, runHook, tempHome, walkFiles, type HookName, type TempHome } from './support/temp-home.js';

/**
 * The redaction corpus through the built hooks: no secret may reach a spool file, the log, or any
 * projection, and ordinary text must arrive unchanged. A process per case costs a tenth of a
 * second of CPU, so the first case of each way in (prompt, command, URL, tool input, error) and
 * the first ordinary prompt run as hook processes, and every other case runs the same bundle in
 * this process (runHookHere): one case of each shape and a sample of the ordinary texts; the
 * whole corpus is measured in-process by redact.test.ts.
 */
const secretCases = secretCasePerShape;
const ordinaryCases = [...writtenBenignCases, ...benignCases.filter((c, i) => !writtenBenignCases.includes(c) && i % 6 === 0)];
let h: TempHome;
beforeAll(() => {
  h = tempHome();
});
afterAll(() => h.cleanup());

const common = (i: number) => ({ session_id: `redaction-${i}`, transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/src/app' });

function hookFor(c: SecretCase, i: number): [HookName, object] {
  switch (c.where) {
    case 'prompt':
      return ['UserPromptSubmit', { ...common(i), prompt: c.text }];
    case 'command':
      return ['PostToolUse', { ...common(i), tool_name: 'Bash', tool_input: { command: c.text, description: 'run it' }, tool_response: { stdout: c.text } }];
    case 'url':
      return ['PostToolUse', { ...common(i), tool_name: 'WebFetch', tool_input: { url: c.text, prompt: 'summarise' }, tool_response: {} }];
    case 'tool-input':
      return ['PostToolUse', { ...common(i), tool_name: 'mcp__acme__run', tool_input: { query: c.text }, tool_response: {} }];
    case 'error':
      return ['PostToolUseFailure', { ...common(i), tool_name: 'Bash', tool_input: { command: 'deploy' }, error: c.text }];
  }
}

/** A secret counts as leaked if any 16 characters of it in a row survive (all of it, if shorter). */
function leaks(text: string, secret: string): string | undefined {
  const width = Math.min(16, secret.length);
  for (let i = 0; i + width <= secret.length; i++) {
    const piece = secret.slice(i, i + width);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

async function inBatches<T>(items: T[], size: number, run: (item: T, index: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map((item, j) => run(item, i + j)));
}

/** The first case of each way in, by index: these run as hook processes. */
const asProcess = new Set([...new Set(secretCases.map((c) => c.where))].map((where) => secretCases.findIndex((c) => c.where === where)));

describe('redaction, end to end through the hooks', () => {
  it(`keeps all ${secretCases.length} secret shapes out of the spool, the log and every projection`, async () => {
    expect(asProcess.size).toBe(5);
    await inBatches(secretCases, 8, async (c, i) => {
      const [hook, payload] = hookFor(c, i);
      if (!asProcess.has(i)) return runHookHere(hook, payload, h.env);
      const result = await runHook(hook, payload, h.env);
      expect(result, c.name).toMatchObject({ code: 0, stdout: '', stderr: '' });
    });
    const spool = readdirSync(h.paths.spoolNew).map((name) => readFileSync(join(h.paths.spoolNew, name), 'utf8'));
    expect(spool.length).toBe(secretCases.length);
    await drain(h.env);
    const log = await dumpLog(h.env);
    expect(log.length).toBe(secretCases.length);
    expect(log.filter((e) => e.type === 'HookInputRejected')).toEqual([]);
    const logText = JSON.stringify(log);
    // Each case is checked against its own session's text for pieces of a secret (other cases
    // may hold harmless ids that share digits), and against everything for the whole secret.
    const bySession = (texts: string[]) => (i: number) => texts.filter((t) => t.includes(`"redaction-${i}"`)).join('\n');
    const spoolOf = bySession(spool);
    const logOf = bySession(log.map((e) => JSON.stringify(e)));
    const everything = [...Object.values(walkFiles(h.paths.home, h.paths.claude)), ...spool].join('\n');
    secretCases.forEach((c, i) => {
      expect(spoolOf(i), c.name).not.toBe('');
      for (const secret of c.secrets) {
        expect(leaks(spoolOf(i), secret), `${c.name}: spool`).toBeUndefined();
        expect(leaks(logOf(i), secret), `${c.name}: log`).toBeUndefined();
        expect(everything.includes(secret), `${c.name}: files`).toBe(false);
      }
    });
    expect(logText).toContain('[REDACTED:');
  });

  it(`leaves ${ordinaryCases.length} ordinary prompts as they were typed`, async () => {
    const other = tempHome();
    try {
      await inBatches(ordinaryCases, 8, async (c, i) => {
        const payload = { ...common(i), prompt: c.text };
        if (i > 0) return runHookHere('UserPromptSubmit', payload, other.env);
        expect(await runHook('UserPromptSubmit', payload, other.env)).toMatchObject({ code: 0, stderr: '' });
      });
      await drain(other.env);
      const prompts = new Set((await dumpLog(other.env)).map((e) => e.data.prompt));
      for (const c of ordinaryCases) expect(prompts.has(c.text), c.name).toBe(true);
    } finally {
      await other.cleanup();
    }
  });
});

describe('caps, end to end through hook processes', () => {
  it('stores a prompt and a pointer whose cut ends in a secret-like name within their caps, never rejected', async () => {
    const h = tempHome();
    try {
      // `token: the quick…` is prose; cut to `token: th` it reads as a credential, and its
      // marker is longer than `th`.
      const sentence = 'token: the quick brown fox jumps over the lazy dog';
      const prompt = `${fill('why does the parser choke on this input? ', PROMPT_CAP - 9)}${sentence}`;
      const command = `echo "${fill('lorem ipsum ', POINTER_CAP - 15)}${sentence}"`;
      const short = `${fill('ls -la ', POINTER_CAP - 12)} pw=x1y2z3`;
      expect(prompt.slice(0, PROMPT_CAP).endsWith('token: th')).toBe(true);
      expect(command.slice(0, POINTER_CAP).endsWith('token: th')).toBe(true);
      await runHook('UserPromptSubmit', { ...common(1), prompt }, h.env);
      for (const [i, cmd] of [command, short].entries()) {
        await runHook('PostToolUse', { ...common(2 + i), tool_name: 'Bash', tool_input: { command: cmd }, tool_response: { stdout: 'ok' } }, h.env);
      }
      await drain(h.env);
      const log = await dumpLog(h.env);
      expect(log.map((e) => e.type)).toEqual(['PromptSubmitted', 'ToolCalled', 'ToolCalled']);
      const [stored, pointer, shortPointer] = log.map((e) => (e.data.prompt ?? e.data.input) as string);
      expect(stored!.length).toBeLessThanOrEqual(PROMPT_CAP);
      expect(stored!.startsWith(prompt.slice(0, PROMPT_CAP - 9))).toBe(true);
      expect(log[0]!.data).toMatchObject({ chars: prompt.length, truncated: true });
      expect(pointer!.length).toBeLessThanOrEqual(POINTER_CAP);
      // Its marker does not fit: the secret goes, and no half marker is left in its place.
      expect(shortPointer).toMatch(/ls -la pw=$/);
      for (const text of [stored!, pointer!, shortPointer!]) expect(text).not.toMatch(/\[REDACTED:[\w-]*$|token: th$/);
    } finally {
      await h.cleanup();
    }
  });
});

function fill(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}
