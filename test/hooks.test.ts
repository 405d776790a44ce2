import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectCorrection } from '../src/capture/correction-detector.js';
import { correctionNotice } from '../src/capture/correction-notice.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { ANSWER_CAP, POINTER_CAP, PROMPT_CAP } from '../src/events/hook-events.js';
import { projectMemoryDir } from '../src/paths.js';
import { redactCapped } from '../src/redaction/redact-capped.js';
import { dumpLog, drain, hookFiles, hooksDir, runHook, useTempHomes, type HookName, type TempHome } from './support/temp-home.js';
import { useWarmHookCode } from './support/warm-hook-code.js';

const newHome = useTempHomes({ inMemory: true });
const warmHookCode = useWarmHookCode();
/**
 * A home with the prompt hook's compiled code in it, as a home has it after its first prompt: the
 * prompt hook runs here a dozen times, in homes of their own, for what it makes of its input (its
 * first start and code cache are test/hook-code-cache.test.ts's).
 */
async function home(env: NodeJS.ProcessEnv = {}): Promise<TempHome> {
  const h = newHome(env);
  await warmHookCode(h, ['UserPromptSubmit']);
  return h;
}
const common = { session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/src/app' };
const spoolFiles = (h: TempHome) => {
  try {
    return readdirSync(h.paths.spoolNew);
  } catch {
    return [];
  }
};
const payloads: Record<HookName, object> = {
  SessionStart: { hook_event_name: 'SessionStart', source: 'startup', model: { id: 'claude-opus', display_name: 'Opus' } },
  UserPromptSubmit: { hook_event_name: 'UserPromptSubmit', prompt: 'why is the build red?' },
  PostToolUse: { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/home/dev/src/app/a.ts' }, tool_response: { type: 'text' }, tool_use_id: 'toolu_1' },
  PostToolUseFailure: { hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm test' }, error: 'Exit code 1', tool_use_id: 'toolu_2' },
  PreCompact: { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: '' },
  Stop: { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'All green.' },
  SubagentStop: { hook_event_name: 'SubagentStop', agent_type: 'Explore', agent_transcript_path: '/tmp/a.jsonl' },
  SessionEnd: { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' },
};
const expectedType: Record<HookName, string> = {
  SessionStart: 'SessionStarted', UserPromptSubmit: 'PromptSubmitted', PostToolUse: 'ToolCalled',
  PostToolUseFailure: 'ToolFailed', PreCompact: 'CompactionStarted', Stop: 'TurnStopped',
  SubagentStop: 'SubagentStopped', SessionEnd: 'SessionEnded',
};

describe('hooks', () => {
  it('load nothing but Node built-ins: never LevelDB, LanceDB, msgpackr or the model (DESIGN.md invariant 2)', () => {
    for (const file of Object.values(hookFiles)) {
      const bundle = readFileSync(join(hooksDir, file), 'utf8');
      // Static requires, and the dynamic imports of the rare paths (starting or handing over a worker).
      const loaded = [...bundle.matchAll(/(?:require|import)\(["']([^"']+)["']\)/g)].map((m) => m[1]!);
      expect(loaded.length, file).toBeGreaterThan(0);
      for (const name of loaded) expect(name, `${file} loads ${name}`).toMatch(/^node:/);
    }
  });

  it('each appends exactly one spool file holding its event, prints nothing and exits 0', async () => {
    const h = await home();
    for (const hook of Object.keys(hookFiles) as HookName[]) {
      const before = spoolFiles(h).length;
      const result = await runHook(hook, { ...common, ...payloads[hook], some_future_field: { nested: true } }, h.env);
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
      const files = spoolFiles(h).sort();
      expect(files.length).toBe(before + 1);
      const envelope = JSON.parse(readFileSync(join(h.paths.spoolNew, files.at(-1)!), 'utf8'));
      expect(envelope).toMatchObject({ type: expectedType[hook], session: 'sess-1', project: '/home/dev/src/app' });
      expect(() => defaultCatalog().read(envelope)).not.toThrow();
    }
    expect(readdirSync(h.paths.spoolTmp)).toEqual([]);
  });

  it('does nothing when ENGRAM_DISABLE=1 or inside the distiller\'s own LLM call', async () => {
    for (const env of [{ ENGRAM_DISABLE: '1' }, { ENGRAM_DISTILLING: '1' }]) {
      const h = await home(env);
      const result = await runHook('UserPromptSubmit', { ...common, prompt: 'hi there' }, h.env);
      expect(result).toMatchObject({ code: 0, stdout: '' });
      expect(spoolFiles(h)).toEqual([]);
    }
  });

  it('stores a tool call as a pointer, never file contents, capped at 200 characters', async () => {
    const h = await home();
    const content = 'SECRET_FILE_BODY '.repeat(100);
    await runHook('PostToolUse', { ...common, tool_name: 'Write', tool_input: { file_path: '/home/dev/src/app/.env', content }, tool_response: {} }, h.env);
    await runHook('PostToolUse', { ...common, tool_name: 'Bash', tool_input: { command: `echo ${'x'.repeat(500)}` }, tool_response: {} }, h.env);
    await runHook('PostToolUse', { ...common, tool_name: 'Grep', tool_input: { pattern: 'TODO', path: 'src' }, tool_response: {} }, h.env);
    await drain(h.env);
    const events = await dumpLog(h.env);
    expect(events.map((e) => e.data.input)).toEqual(['/home/dev/src/app/.env', expect.stringMatching(/^echo x+$/), 'TODO in src']);
    expect(events[1]!.data.input.length).toBe(POINTER_CAP);
    expect(JSON.stringify(events)).not.toContain('SECRET_FILE_BODY');
  });

  it('takes malformed stdin in stride: exit 0, nothing printed, the input quarantined, the log valid', async () => {
    const h = await home();
    const cases: Array<[string, HookName, string | Buffer]> = [
      ['empty', 'UserPromptSubmit', ''],
      ['not JSON', 'Stop', '{"session_id": "sess-1", '],
      ['a JSON array', 'SessionEnd', '[1,2,3]'],
      ['wrong types', 'UserPromptSubmit', JSON.stringify({ ...common, prompt: 42 })],
      ['session id a number', 'PostToolUse', JSON.stringify({ ...common, session_id: 7, tool_name: 'Read' })],
      ['binary', 'PreCompact', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256))],
      ['5 MB prompt', 'UserPromptSubmit', JSON.stringify({ ...common, prompt: `start ${'lorem ipsum dolor '.repeat(290_000)} end` })],
    ];
    // How long these take is the bench's to measure (npm run bench), never a test's.
    for (const [name, hook, stdin] of cases) {
      const result = await runHook(hook, stdin, h.env);
      expect(result, name).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(spoolFiles(h).length).toBe(cases.length);
    await drain(h.env);
    const events = await dumpLog(h.env);
    expect(events.map((e) => e.type)).toEqual([
      'HookInputRejected', 'HookInputRejected', 'HookInputRejected', 'HookInputRejected', 'HookInputRejected',
      'HookInputRejected', 'PromptSubmitted',
    ]);
    const catalog = defaultCatalog();
    for (const event of events) expect(() => catalog.read(event as any)).not.toThrow();
    expect(events[0]!.data.reason).toBe('empty stdin');
    expect(events[3]!.data.reason).toContain('prompt');
    expect(events[3]!.session).toBe('sess-1');
    const big = events[6]!.data;
    expect(big).toMatchObject({ truncated: true, chars: 5_220_010 });
    expect(big.prompt.length).toBe(PROMPT_CAP);
    expect(readFileSync(h.paths.hooksLog, 'utf8').trim().split('\n').length).toBe(6);
  });

  it('Stop keeps the final answer redacted and capped at ANSWER_CAP, and its length as sent', async () => {
    const h = await home();
    const answer = `Deployed with STRIPE_SECRET_KEY=sk_live_51Hq8ZtK2eZvKYlo2C9xQwErTy7UiOp3AsDfGh. ${'All checks pass. '.repeat(400)}`;
    const result = await runHook('Stop', { ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: answer }, h.env);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await drain(h.env);
    const [event] = (await dumpLog(h.env)).filter((e) => e.type === 'TurnStopped');
    expect(event).toMatchObject({ schemaVersion: 2, data: { stopHookActive: false, answerChars: answer.length } });
    expect(event!.data.answer.length).toBe(ANSWER_CAP);
    expect(event!.data.answer.startsWith('Deployed with STRIPE_SECRET_KEY=[REDACTED:stripe-key]. All checks pass.')).toBe(true);
    expect(JSON.stringify(event)).not.toContain('sk_live_');
  });

  it('keeps a rejected payload as its outline and pointer: never tool output, file contents or raw stdin', async () => {
    const h = await home();
    // tool_use_id must be a string: this payload is rejected, with output and contents in it.
    const rejected = {
      ...common,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: '/home/dev/src/app/notes.md', content: 'FILE_BODY private notes' },
      tool_response: { stdout: 'TOOL_OUTPUT the diff of a private repository', filePath: '/home/dev/src/app/notes.md' },
      tool_use_id: 42,
    };
    const notJson = `{"session_id": "sess-1", "prompt": "RAW_PROMPT my diary", "password": "hunter2"`;
    for (const [hook, stdin] of [['PostToolUse', JSON.stringify(rejected)], ['UserPromptSubmit', notJson]] as const) {
      expect(await runHook(hook, stdin, h.env), hook).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    await drain(h.env);
    const [tool, prompt] = await dumpLog(h.env);
    expect(tool).toMatchObject({ type: 'HookInputRejected', session: 'sess-1', data: { hook: 'PostToolUse' } });
    expect(tool!.data.reason).toContain('tool_use_id');
    expect(tool!.data.excerpt).toBe(
      '{session_id: "sess-1", transcript_path: "/tmp/t.jsonl", cwd: "/home/dev/src/app", hook_event_name: "PostToolUse", ' +
        'tool_name: "Write", tool_input: object(2 keys), tool_response: object(2 keys), tool_use_id: number}; ' +
        'pointer: /home/dev/src/app/notes.md',
    );
    expect(prompt).toMatchObject({ type: 'HookInputRejected', data: { hook: 'UserPromptSubmit', excerpt: `not JSON: ${notJson.length} bytes` } });
    const everything = JSON.stringify([tool, prompt]) + readFileSync(h.paths.hooksLog, 'utf8');
    for (const text of ['FILE_BODY', 'TOOL_OUTPUT', 'RAW_PROMPT', 'hunter2']) expect(everything).not.toContain(text);
  });

  it('says in one line of context when a prompt was a correction, and stores the prompt as before', async () => {
    const h = await home();
    const prompt = 'No, I told you to use pnpm, not npm!';
    const result = await runHook('UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt }, h.env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('engram noted a lesson for this project: "use pnpm, not npm" (saved to memory).\n');
    const [file] = spoolFiles(h);
    const envelope = JSON.parse(readFileSync(join(h.paths.spoolNew, file!), 'utf8'));
    expect(envelope).toMatchObject({ type: 'PromptSubmitted', schemaVersion: 2, session: 'sess-1', project: '/home/dev/src/app' });
    expect(envelope.data).toEqual({ prompt, chars: prompt.length, truncated: false });
    expect(() => defaultCatalog().read(envelope)).not.toThrow();

    const ordinary = await runHook('UserPromptSubmit', { ...common, prompt: 'why does this test always fail on CI?' }, h.env);
    expect(ordinary).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(spoolFiles(h).length).toBe(2);
  });

  it('turns the corrections a new user types first into lessons: notice from the hook, memory file after the drain', async () => {
    // Issue 21: each of these was missed, with no notice and no memory.
    const prompts = ["no, don't use npm here, this repo uses pnpm", 'no, use pnpm here, not npm', 'this repo uses pnpm, not npm'];
    for (const [n, prompt] of prompts.entries()) {
      const h = await home();
      const cwd = `/home/dev/src/app-${n}`;
      const result = await runHook('UserPromptSubmit', { ...common, cwd, hook_event_name: 'UserPromptSubmit', prompt }, h.env);
      expect(result, prompt).toMatchObject({ code: 0, stderr: '' });
      const lesson = detectCorrection(prompt)!.lesson;
      expect(lesson, prompt).toMatch(/pnpm/);
      expect(result.stdout, prompt).toBe(`engram noted a lesson for this project: "${lesson}" (saved to memory).\n`);
      await drain(h.env);
      const dir = join(h.paths.claude, projectMemoryDir(cwd));
      // Other projections write their own files here (auto-errors.md …): the lesson is in exactly one.
      const files = readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'MEMORY.md');
      const lessons = files.filter((name) => readFileSync(join(dir, name), 'utf8').includes(lesson));
      expect(lessons, prompt).toHaveLength(1);
      expect(readFileSync(join(dir, lessons[0]!), 'utf8'), prompt).toMatch(/type: feedback/);
      expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), prompt).toContain(lessons[0]!);
    }
  });

  it('reads the correction from the prompt as stored: redacted, and about the person when it is', async () => {
    const h = await home();
    const secret = 'ghp_FAKE1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P';
    const prompt = `from now on read the token from GITHUB_TOKEN=${secret} and never paste it into scripts`;
    const result = await runHook('UserPromptSubmit', { ...common, prompt }, h.env);
    expect(result.stdout).toBe(`${correctionNotice(detectCorrection(redactCapped(prompt, PROMPT_CAP))!)}\n`);
    expect(result.stdout).toMatch(/\[REDACTED:[a-z-]+\]/);
    expect(result.stdout).not.toContain(secret);
    const user = await runHook('UserPromptSubmit', { ...common, prompt: 'I prefer tabs over spaces in all my projects' }, h.env);
    expect(user.stdout).toBe('engram noted a fact about the user for all projects: "I prefer tabs over spaces in all my projects" (saved to memory).\n');
  });

  it('prints nothing for a correction when disabled, or when the prompt could not be stored', async () => {
    const prompt = 'never use npm in this repo';
    for (const env of [{ ENGRAM_DISABLE: '1' }, { ENGRAM_DISTILLING: '1' }]) {
      const h = await home(env);
      expect(await runHook('UserPromptSubmit', { ...common, prompt }, h.env)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(spoolFiles(h)).toEqual([]);
    }
    const h = await home();
    writeFileSync(join(h.root, 'not-a-dir'), 'x');
    const result = await runHook('UserPromptSubmit', { ...common, prompt }, { ...h.env, ENGRAM_HOME: join(h.root, 'not-a-dir', 'home') });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('exits 0 and prints nothing even when it cannot write at all', async () => {
    const h = await home();
    writeFileSync(join(h.root, 'not-a-dir'), 'x');
    const result = await runHook('UserPromptSubmit', { ...common, prompt: 'hello' }, { ...h.env, ENGRAM_HOME: join(h.root, 'not-a-dir', 'home') });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
