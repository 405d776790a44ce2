import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateClaudeDir } from '../bench/claude-history.js';
import { runBackfill } from '../src/backfill/run-backfill.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { projectSlug } from '../src/paths.js';
import { runHookHere } from './support/hook-here.js';
import { cliHere, dumpLog, useTempHomes } from './support/temp-home.js';

const newHome = useTempHomes();
const NOW = '2026-12-01T10:00:00.000Z';

type Dumped = Record<string, any>;

function bySession(events: Dumped[]) {
  const sessions = new Map<string, { prompts: number; toolCalls: number; toolFailures: number; compactions: number; subagents: number; starts: string[]; ends: number; first: number; last: number }>();
  for (const event of events) {
    if (event.session === '') continue;
    const s = sessions.get(event.session) ?? { prompts: 0, toolCalls: 0, toolFailures: 0, compactions: 0, subagents: 0, starts: [], ends: 0, first: Infinity, last: 0 };
    const at = Date.parse(event.ts);
    s.first = Math.min(s.first, at);
    s.last = Math.max(s.last, at);
    if (event.type === 'PromptSubmitted') s.prompts++;
    if (event.type === 'ToolCalled' || event.type === 'ToolFailed') s.toolCalls++;
    if (event.type === 'ToolFailed') s.toolFailures++;
    if (event.type === 'CompactionStarted') s.compactions++;
    if (event.type === 'SubagentStopped') s.subagents++;
    if (event.type === 'SessionStarted') s.starts.push(event.data.source);
    if (event.type === 'SessionEnded') s.ends++;
    sessions.set(event.session, s);
  }
  return sessions;
}

describe('engram backfill', () => {
  it('adopts a generated CLAUDE_CONFIG_DIR: events per session, original times, redaction, the report; twice = once', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const generated = generateClaudeDir(home.paths.claude);

    const dry = await cliHere(['backfill', '--dry-run'], home.env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^dry run, nothing appended: /);
    const derived = /events: (\d+) derived, \1 would be new, 0 already in the log/.exec(dry.stdout)?.[1];
    expect(derived, dry.stdout).toBeDefined();

    const first = await cliHere(['backfill', '--no-distill'], home.env);
    // Everything the dry run found new still was: it appended nothing.
    expect(first.stdout).toContain(`events: ${derived} derived, ${derived} appended, 0 already in the log`);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const events = await dumpLog(home.env);
    const hookEvents = events.filter((event) => event.type !== 'RecordBackfilled' && event.type !== 'DistillSkipped');
    // Every event derived from the records is marked as backfilled by its id.
    expect(hookEvents.every((event) => event.id.startsWith('bf:'))).toBe(true);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);

    const found = bySession(hookEvents);
    for (const [session, expected] of generated.sessions) {
      const got = found.get(session);
      expect(got, session).toBeDefined();
      expect({ session, prompts: got!.prompts, toolCalls: got!.toolCalls, toolFailures: got!.toolFailures, compactions: got!.compactions, subagents: got!.subagents })
        .toEqual({ session, prompts: expected.prompts, toolCalls: expected.toolCalls, toolFailures: expected.toolFailures, compactions: expected.compactions, subagents: expected.subagents });
      // The records' own times, not the clock's.
      expect(got!.first).toBeGreaterThanOrEqual(expected.firstAt);
      expect(got!.last).toBeLessThanOrEqual(expected.lastAt);
      if (session === generated.historyOnly) {
        // Known only from history.jsonl: a prompt-only session.
        expect(got!.starts).toEqual([]);
        expect(got!.ends).toBe(0);
      } else {
        expect(got!.starts.filter((source) => source === 'startup')).toHaveLength(1);
        expect(got!.starts.filter((source) => source === 'compact')).toHaveLength(expected.compactions);
        expect(got!.ends).toBe(1);
      }
    }
    // Older history lines without a session id, covered by no transcript: one prompt-only session of notes.d.
    const old = [...found.entries()].filter(([session]) => session.startsWith('history-'));
    expect(old).toHaveLength(1);
    expect(old[0]![1].prompts).toBe(generated.oldHistoryPrompts);
    expect(found.size).toBe(generated.sessions.size + 1);

    // Redacted exactly as the hooks redact: no secret reaches the log; markers by kind in the report.
    const logText = JSON.stringify(events);
    for (const secret of generated.secrets) expect(logText).not.toContain(secret);
    expect(logText).toContain('[REDACTED:github-token]');
    expect(first.stdout).toMatch(/secrets redacted: 100 \(bearer 54, github-token 27, aws-key 18, slack-token 1\)/);
    expect(first.stdout).toContain('sessions: 56 (2 known only from history.jsonl, 0 also captured live by the hooks)');
    expect(first.stdout).toMatch(/lines passed over: .*not JSON 2.*cut short 1/);
    expect(first.stdout).toContain(`project directory ${generated.undecodedSlug}: its name does not decode to an existing path`);
    expect(first.stdout).toMatch(/distiller: 56 backfilled sessions marked not to distill/);
    // A tool call is a pointer, never its output; a prompt with a byte that is not UTF-8 is kept.
    const bash = hookEvents.find((event) => event.type === 'ToolCalled' && event.data.tool === 'Bash' && event.data.input.startsWith('curl'));
    expect(bash?.data.input).toMatch(/^curl -H "Authorization: Bearer \[REDACTED:bearer\]"/);
    expect(hookEvents.some((event) => event.type === 'PromptSubmitted' && event.data.prompt.includes('caf\uFFFD'))).toBe(true);

    // The projections take the sessions in, by the day they happened.
    const [payments] = [...generated.sessions.entries()].filter(([, s]) => s.project === '/home/dev/src/payments-api');
    const day = new Date(payments![1].firstAt).toISOString().slice(0, 10);
    const view = readFileSync(join(home.paths.views, 'sessions', projectSlug('/home/dev/src/payments-api'), `${day}.jsonl`), 'utf8');
    expect(JSON.parse(view.split('\n')[0]!)).toMatchObject({ session: payments![0], prompts: payments![1].prompts, toolCalls: payments![1].toolCalls });

    // Twice = once: nothing new, and no file is read again.
    const second = await cliHere(['backfill'], home.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('events: 0 derived, 0 appended');
    expect(second.stdout).toMatch(/files read: 0 .*unchanged since an earlier run: 70/);
    expect((await dumpLog(home.env)).length).toBe(events.length);
  }, 60_000);

  it('reports progress by bytes read, never backwards, up to the whole of what it lists (files of a sibling project passed over included)', async () => {
    const home = newHome();
    generateClaudeDir(home.paths.claude, { sessions: 8 });
    const log = await LevelEventLog.open(join(home.root, 'log'));
    const seen: Array<[number, number]> = [];
    try {
      await runBackfill({ claudeDir: home.paths.claude, now: new Date(NOW), project: '/home/dev/src/web-dashboard', dryRun: true, progress: (done, total) => seen.push([done, total]) }, {
        append: async (events) => (await log.append(events)).appended.map((event) => event.id),
        has: (ids) => log.has(ids),
        liveSince: async () => undefined,
      });
    } finally {
      await log.close();
    }
    const [, total] = seen[0]!;
    expect(seen.every(([done, all], i) => all === total && done <= total && (i === 0 || done >= seen[i - 1]![0]))).toBe(true);
    expect(seen.at(-1)![0]).toBe(total);
  });

  it('--project and --since narrow what is read; a bad --since is a usage error', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const generated = generateClaudeDir(home.paths.claude, { sessions: 12 });
    const project = '/home/dev/src/ml_pipeline';
    const since = new Date([...generated.sessions.values()].filter((s) => s.project === project)[1]!.firstAt).toISOString();
    const narrowed = await cliHere(['backfill', '--project', project, '--since', since, '--no-distill'], home.env);
    expect(narrowed.code).toBe(0);
    const events = (await dumpLog(home.env)).filter((event) => event.session !== '' && event.type !== 'DistillSkipped');
    expect(new Set(events.map((event) => event.session)).size).toBe(2);
    expect(events.every((event) => event.project === project && event.ts >= since)).toBe(true);

    const bad = await cliHere(['backfill', '--since', 'last tuesday'], home.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since takes a date');
  }, 60_000);

  it('live + backfill = once: a session the hooks captured from halfway is completed with what came before', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const generated = generateClaudeDir(home.paths.claude, { sessions: 4 });
    const [session, expected] = [...generated.sessions.entries()][0]!;
    const path = join(home.paths.claude, 'projects', projectSlug(expected.project), `${session}.jsonl`);
    const lines = readFileSync(path, 'utf8').split('\n').flatMap((text) => {
      try {
        return [JSON.parse(text) as Dumped];
      } catch {
        return [];
      }
    });
    // The hooks were installed before the second prompt (a moment after the line before it). They
    // run in this process (the hooks' built bundles, hook-here.ts): what they record is the point
    // here, not their processes.
    const typed = (line: Dumped) => line.type === 'user' && !line.isMeta && !line.isCompactSummary && !line.isSidechain &&
      (typeof line.message?.content === 'string' || line.message?.content?.[0]?.type === 'text');
    const prompts = lines.filter(typed);
    const liveFrom = lines.indexOf(prompts[1]!);
    const common = { session_id: session, cwd: expected.project, transcript_path: path };
    const uses = new Map<string, Dumped>();
    for (const line of lines.slice(liveFrom)) {
      const env = { ...home.env, ENGRAM_NOW: line.timestamp ?? NOW };
      const content = line.message?.content;
      if (line.type === 'assistant') for (const block of content ?? []) if (block.type === 'tool_use') uses.set(block.id, block);
      if (line.type !== 'user') continue;
      if (typed(line)) await runHookHere('UserPromptSubmit', { ...common, prompt: typeof content === 'string' ? content : content[0].text }, env);
      else if (Array.isArray(content)) {
        for (const block of content ?? []) {
          const use = uses.get(block.tool_use_id);
          if (block.type !== 'tool_result' || !use) continue;
          if (block.is_error) await runHookHere('PostToolUseFailure', { ...common, tool_name: use.name, tool_input: use.input, tool_use_id: use.id, error: block.content }, env);
          else await runHookHere('PostToolUse', { ...common, tool_name: use.name, tool_input: use.input, tool_use_id: use.id, tool_response: {} }, env);
        }
      }
    }
    const result = await cliHere(['backfill', '--no-distill'], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('also captured live by the hooks');
    const events = (await dumpLog(home.env)).filter((event) => event.session === session && event.type !== 'DistillSkipped');
    const got = bySession(events).get(session)!;
    expect({ prompts: got.prompts, toolCalls: got.toolCalls, toolFailures: got.toolFailures }).toEqual({
      prompts: expected.prompts, toolCalls: expected.toolCalls, toolFailures: expected.toolFailures,
    });
    // Each tool call once, whoever recorded it; the backfilled ones all before the live capture began.
    const toolIds = events.filter((event) => event.type.startsWith('Tool')).map((event) => event.data.toolUseId);
    expect(new Set(toolIds).size).toBe(toolIds.length);
    const liveAt = Date.parse(lines[liveFrom]!.timestamp);
    expect(events.filter((event) => event.id.startsWith('bf:')).every((event) => Date.parse(event.ts) < liveAt)).toBe(true);
    expect(events.some((event) => !event.id.startsWith('bf:'))).toBe(true);
    // The hooks never said the session ended; backfill leaves that to them.
    expect(got.ends).toBe(0);
    expect(existsSync(home.paths.views)).toBe(true);
    expect(readdirSync(join(home.paths.views, 'sessions')).length).toBeGreaterThan(0);
  }, 90_000);
});

describe('backfilled sessions through the pipeline', () => {
  it('are distilled oldest first, their memories dated by the sessions, and the maintenance tick ages them by those dates', async () => {
    const home = newHome({
      ENGRAM_NOW: NOW,
      ENGRAM_DISTILLER: '',
      ENGRAM_LLM_CMD: `node ${join(import.meta.dirname, '..', 'fixtures', 'fake-llm', 'fake-llm.mjs')}`,
    });
    const generated = generateClaudeDir(home.paths.claude, { sessions: 4 });
    expect((await cliHere(['backfill'], home.env)).code).toBe(0);
    const drained = await cliHere(['worker', '--drain'], home.env);
    expect(drained.code, drained.stderr).toBe(0);
    const events = await dumpLog(home.env);
    const requested = events.filter((event) => event.type === 'DistillRequested').map((event) => event.session);
    const completed = events.filter((event) => event.type === 'DistillCompleted');
    // Every non-trivial session, in the order they happened.
    const lastAt = (session: string) => generated.sessions.get(session)?.lastAt ?? 0;
    expect(requested.length).toBeGreaterThanOrEqual(4);
    expect([...requested].sort((a, b) => lastAt(a) - lastAt(b))).toEqual(requested);
    for (const event of completed) {
      const session = generated.sessions.get(event.session);
      if (session) expect(Date.parse(event.data.learnedAt)).toBeLessThanOrEqual(session.lastAt);
    }
    // A June session's episode is dated June, so December's tick finds it long decayed and archives it
    // (an episode the fake LLM worded like another's may be superseded as a near-duplicate instead).
    const maintained = await cliHere(['maintain'], home.env);
    expect(maintained.code, maintained.stderr).toBe(0);
    const archived = (await dumpLog(home.env)).filter((event) => event.type === 'MemoryArchived').map((event) => event.data.memoryId as string);
    const session = [...generated.sessions.keys()].find((id) => archived.includes(`episode:${id}`));
    expect(session, JSON.stringify(archived)).toBeDefined();
    const archive = join(home.paths.claude, 'projects', projectSlug(generated.sessions.get(session!)!.project), 'memory', '_archive');
    const episode = readdirSync(archive).map((file) => readFileSync(join(archive, file), 'utf8')).find((text) => text.includes(`episode:${session}`));
    expect(episode).toContain(`created: ${new Date(generated.sessions.get(session!)!.lastAt).toISOString().slice(0, 10)}`);
  }, 120_000);
});
