import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { parseMemoryFile } from '../src/memories/memory-file.js';
import { projectMemoryDir } from '../src/paths.js';
import { projectionHarness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-memories-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, String(++n));
const project = '/home/dev/src/payments';
const dir = projectMemoryDir(project);

let seq = 0;
const event = (type: string, data: unknown, at?: string): Envelope => {
  seq++;
  const ts = at ?? `2026-11-01T10:00:${String(seq % 60).padStart(2, '0')}.000Z`;
  return { id: `evt-mem-${String(seq).padStart(6, '0')}`, type, schemaVersion: 1, ts, session: 's1', project, data };
};
const proposed = (memoryId: string, name: string, description: string, extra: Record<string, unknown> = {}) =>
  event('MemoryProposed', { memoryId, origin: 'user', scope: 'project', name, description, type: 'feedback', body: `${description}\n`, status: 'active', confidence: 0.8, ...extra });

describe('the memories projection', () => {
  it('writes each memory as a Claude Code memory file and indexes it in MEMORY.md, best first', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append([
      proposed('m1', 'Use pnpm', 'use pnpm, not npm, in this repo'),
      proposed('m2', 'Money is integer cents', 'amounts are integer cents, never floats', { confidence: 1 }),
    ]);
    await (await h.runner()).catchUp();
    const file = readFileSync(join(h.roots.claude, dir, 'use-pnpm.md'), 'utf8');
    const parsed = parseMemoryFile(file, 'use-pnpm.md');
    expect(parsed).toMatchObject({ name: 'Use pnpm', description: 'use pnpm, not npm, in this repo', type: 'feedback', confidence: 0.8, status: 'active', body: 'use pnpm, not npm, in this repo\n' });
    expect(parsed.extra.metadata).toContainEqual({ key: 'memory_id', value: 'm1' });
    expect(readFileSync(join(h.roots.claude, dir, 'MEMORY.md'), 'utf8')).toBe(
      '- [money-is-integer-cents.md](money-is-integer-cents.md) — amounts are integer cents, never floats\n' +
        '- [use-pnpm.md](use-pnpm.md) — use pnpm, not npm, in this repo\n',
    );
    await h.close();
  });

  it('reinforces a lesson said again instead of writing a second memory', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append([
      event('MemoryProposed', { memoryId: 'c1', origin: 'correction', scope: 'project', name: 'Run tests with pnpm', description: 'run the tests with pnpm test', type: 'feedback', body: 'x\n', status: 'active', confidence: 0.6 }),
      event('MemoryProposed', { memoryId: 'c2', origin: 'correction', scope: 'project', name: 'Run the tests with pnpm', description: 'always run tests with pnpm test', type: 'feedback', body: 'y\n', status: 'active', confidence: 0.6 }),
    ]);
    await (await h.runner()).catchUp();
    expect(existsSync(join(h.roots.claude, dir, 'run-the-tests-with-pnpm.md'))).toBe(false);
    const parsed = parseMemoryFile(readFileSync(join(h.roots.claude, dir, 'run-tests-with-pnpm.md'), 'utf8'), 'x.md');
    expect(parsed).toMatchObject({ confidence: 0.7, reinforced: 1 });
    await h.close();
  });

  it('moves an archived memory to _archive/ with its body, points to it, and a rebuild writes the same bytes', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append([
      proposed('m1', 'Old CI', 'CI runs on Jenkins'),
      proposed('m2', 'Pinned rule', 'never push to main', { pinned: true }),
      event('MemoryArchived', { memoryId: 'm1', reason: 'decayed' }, '2026-11-20T00:00:00.000Z'),
      event('MemoryArchived', { memoryId: 'm2', reason: 'decayed' }, '2026-11-20T00:00:01.000Z'),
    ]);
    const runner = await h.runner();
    await runner.catchUp();
    expect(existsSync(join(h.roots.claude, dir, 'old-ci.md'))).toBe(false);
    expect(readFileSync(join(h.roots.claude, dir, '_archive', 'old-ci.md'), 'utf8')).toContain('CI runs on Jenkins\n');
    expect(existsSync(join(h.roots.claude, dir, 'pinned-rule.md'))).toBe(true);
    const index = readFileSync(join(h.roots.claude, dir, 'MEMORY.md'), 'utf8');
    expect(index).toBe('- [pinned-rule.md](pinned-rule.md) — never push to main\n\n## Archive Index\n- [Old CI](_archive/old-ci.md) — archived 2026-11-20: decayed\n');
    const before = h.snapshot();
    await runner.rebuild();
    expect(h.snapshot()).toEqual(before);
    // Restored: back in place, and the archive copy let go of.
    await h.log.append([event('MemoryRestored', { memoryId: 'm1' }, '2026-11-21T00:00:00.000Z')]);
    await runner.catchUp();
    expect(existsSync(join(h.roots.claude, dir, 'old-ci.md'))).toBe(true);
    expect(existsSync(join(h.roots.claude, dir, '_archive', 'old-ci.md'))).toBe(false);
    await h.close();
  });

  it('never overwrites a memory file someone edited, and never takes a file that is not engram\'s', async () => {
    const h = await projectionHarness(freshDir());
    mkdirSync(join(h.roots.claude, dir), { recursive: true });
    writeFileSync(join(h.roots.claude, dir, 'mine.md'), '---\nname: mine\n---\nby hand\n');
    await h.log.append([proposed('m1', 'Mine', 'a memory that wants the same file name')]);
    const runner = await h.runner();
    await runner.catchUp();
    expect(readFileSync(join(h.roots.claude, dir, 'mine.md'), 'utf8')).toBe('---\nname: mine\n---\nby hand\n');
    const path = join(h.roots.claude, dir, 'mine.md');
    expect((await runner.outputsOf('memories')).find(([p]) => p === path)?.[1].state).toBe('foreign');
    await h.close();
  });

  it('turns a correction in a prompt into a lesson, and the same lesson said again into a reinforcement', async () => {
    const h = await projectionHarness(freshDir());
    const prompt = (text: string) => event('PromptSubmitted', { prompt: text, chars: text.length, truncated: false });
    // Prompts are schemaVersion 2.
    const p = (text: string) => ({ ...prompt(text), schemaVersion: 2 });
    await h.log.append([
      p('No, I told you to use pnpm, not npm!'),
      p('is that wrong?'),
      p('from now on use pnpm, not npm'),
      p('remember I am on Windows, so give me PowerShell commands, not bash'),
    ]);
    await (await h.runner()).catchUp();
    const index = readFileSync(join(h.roots.claude, dir, 'MEMORY.md'), 'utf8');
    // One lesson (the stats projection's lines come after it).
    expect(index.split('\n').filter((line) => !line.includes('auto-'))).toEqual(['- [use-pnpm-not-npm.md](use-pnpm-not-npm.md) — Use pnpm, not npm', '']);
    const lesson = parseMemoryFile(readFileSync(join(h.roots.claude, dir, 'use-pnpm-not-npm.md'), 'utf8'), 'x.md');
    expect(lesson).toMatchObject({ type: 'feedback', status: 'active', confidence: 0.7, reinforced: 1, body: 'use pnpm, not npm\n' });
    // A fact about the person holds in every project: the global directory.
    expect(readFileSync(join(h.roots.claude, 'engram', 'memory', 'MEMORY.md'), 'utf8')).toMatch(/PowerShell/);
    await h.close();
  });
});
