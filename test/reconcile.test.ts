import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { parseMemoryFile } from '../src/memories/memory-file.js';
import { projectMemoryDir } from '../src/paths.js';
import type { MemoryRow } from '../src/projections/memories/memory-row.js';
import { openEngine, type ComposedEngine } from '../src/composition/open-engine.js';
import { reconcileNow } from '../src/commands/reconcile-command.js';
import { useTempHomes, walkFiles } from './support/temp-home.js';

const newHome = useTempHomes();
const project = '/home/dev/src/payments';
const dir = projectMemoryDir(project);
const at = '2026-11-01T10:00:00.000Z';

async function open(home: ReturnType<typeof newHome>) {
  return openEngine({ paths: home.paths, clock: fixedClock(new Date(at)), maintainEveryMs: Number.POSITIVE_INFINITY });
}

let n = 0;
const envelope = (type: string, data: unknown, extra: Partial<Envelope> = {}): Envelope => ({
  id: `evt-rec-${String(++n).padStart(6, '0')}`, type, schemaVersion: 1, ts: at, session: 's1', project, data, ...extra,
});
const proposed = (memoryId: string, name: string, description: string) =>
  envelope('MemoryProposed', { memoryId, origin: 'user', scope: 'project', name, description, type: 'feedback', body: `${description}\n`, status: 'active', confidence: 0.8 });

async function events(engine: ComposedEngine): Promise<Envelope[]> {
  const all: Envelope[] = [];
  for await (const batch of engine.log.read()) all.push(...batch);
  return all;
}

async function row(engine: ComposedEngine, id: string): Promise<MemoryRow> {
  return (await engine.runner.rowsOf('memories').get(`mem:${id}`)) as MemoryRow;
}

describe('the reconciler', () => {
  it('records a hand edit once, writes it back byte for byte, and a rebuild keeps it', async () => {
    const home = newHome();
    const engine = await open(home);
    await engine.record([proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    const file = join(home.paths.claude, dir, 'use-pnpm.md');
    const written = readFileSync(file, 'utf8');
    const edited = written.replace(/---\nuse pnpm, not npm\n$/, '---\nuse pnpm, not npm, and never yarn\n\nSee the README.\n').replace('name: Use pnpm', 'name: Use pnpm only');
    expect(edited).not.toBe(written);
    writeFileSync(file, edited);

    const first = await reconcileNow(engine, undefined);
    expect(first.appended).toBe(1);
    expect(first.notes).toEqual([`edited by hand: ${dir}/use-pnpm.md`]);
    const second = await reconcileNow(engine, undefined);
    expect(second.appended).toBe(0);
    expect((await events(engine)).filter((e) => e.type === 'MemoryEdited')).toHaveLength(1);

    expect(await row(engine, 'm1')).toMatchObject({ name: 'Use pnpm only', body: 'use pnpm, not npm, and never yarn\n\nSee the README.\n' });
    expect(readFileSync(file, 'utf8')).toBe(edited);
    const before = walkFiles(home.paths.claude);
    await engine.runner.rebuild();
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(walkFiles(home.paths.claude)).toEqual(before);
    expect(readFileSync(join(home.paths.claude, dir, 'MEMORY.md'), 'utf8')).toBe('- [use-pnpm.md](use-pnpm.md) — use pnpm, not npm\n');
    // Edited again, then back to the first edit: each is a change of its own, and the file follows.
    const again = edited.replace('See the README.', 'See CONTRIBUTING.md.');
    writeFileSync(file, again);
    expect((await reconcileNow(engine, undefined)).appended).toBe(1);
    writeFileSync(file, edited);
    expect((await reconcileNow(engine, undefined)).appended).toBe(1);
    expect((await row(engine, 'm1')).body).toBe('use pnpm, not npm, and never yarn\n\nSee the README.\n');
    expect(readFileSync(file, 'utf8')).toBe(edited);
    await engine.close();
  });

  it('leaves a file whose edit broke its frontmatter alone, and never rewrites it, not even in a rebuild', async () => {
    const home = newHome();
    const engine = await open(home);
    await engine.record([proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    const file = join(home.paths.claude, dir, 'use-pnpm.md');
    const broken = readFileSync(file, 'utf8').replace('name: Use pnpm', 'name: [Use pnpm');
    writeFileSync(file, broken);
    const { notes, appended } = await reconcileNow(engine, undefined);
    expect(appended).toBe(0);
    expect(notes[0]).toMatch(/^left alone: .*use-pnpm\.md: changed, but invalid YAML/);
    await engine.record([envelope('MemoryReinforced', { memoryId: 'm1', by: 'user' })]);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    await engine.runner.rebuild();
    expect(readFileSync(file, 'utf8')).toBe(broken);
    await engine.close();
  });

  it('records a memory file the agent wrote with its Write tool as the agent\'s edit, from the ToolCalled event', async () => {
    const home = newHome();
    const engine = await open(home);
    await engine.record([proposed('m1', 'Deploys', 'deploys happen after 14:00')]);
    await engine.react(); // the first round after start looks at every directory: nothing changed
    expect((await events(engine)).filter((e) => e.type.startsWith('Memory') && e.type !== 'MemoriesMaintained').map((e) => e.type)).toEqual(['MemoryProposed']);
    const file = join(home.paths.claude, dir, 'deploys.md');
    const byAgent = readFileSync(file, 'utf8').replace(/---\ndeploys happen after 14:00\n$/, '---\ndeploys happen after 15:00 since November\n');
    writeFileSync(file, byAgent);
    const newFile = join(home.paths.claude, dir, 'release-train.md');
    writeFileSync(newFile, '---\nname: Release train\ndescription: releases leave every Tuesday\ntype: project\n---\nEvery Tuesday.\n');
    await engine.record([
      envelope('ToolCalled', { tool: 'Write', input: file, ok: true }),
      envelope('ToolCalled', { tool: 'Edit', input: newFile, ok: true }),
    ]);
    expect(await engine.react()).toBe(2);
    await engine.runner.catchUp();
    const recorded = (await events(engine)).filter((e) => e.type === 'MemoryEdited' || (e.type === 'MemoryProposed' && e.id.startsWith('adopted:')));
    expect(recorded.map((e) => [e.type, (e.data as { by?: string; origin?: string }).by ?? (e.data as { origin?: string }).origin])).toEqual([
      ['MemoryEdited', 'agent'],
      ['MemoryProposed', 'agent'],
    ]);
    expect(readFileSync(file, 'utf8')).toBe(byAgent);
    expect(readFileSync(join(home.paths.claude, dir, 'MEMORY.md'), 'utf8')).toContain('- [release-train.md](release-train.md) — releases leave every Tuesday');
    // The round again (a crash before its cursor was saved): the same ids, stored once.
    expect(await engine.react()).toBe(0);
    await engine.close();
  });

  it('adopts a new file by hand in place, archives a memory whose file was deleted by hand, and a SessionStarted triggers it', async () => {
    const home = newHome();
    const engine = await open(home);
    await engine.record([proposed('m1', 'Old CI', 'CI runs on Jenkins'), proposed('m2', 'Staging', 'staging resets nightly')]);
    await engine.react();
    const memDir = join(home.paths.claude, dir);
    rmSync(join(memDir, 'old-ci.md'));
    const hand = '---\nname: Café rules\ndescription: the café closes at 5\ntype: user\n---\nBe home by 5.\n';
    writeFileSync(join(memDir, 'café rules.md'), hand);
    await engine.record([envelope('SessionStarted', { source: 'startup' })]);
    expect(await engine.react()).toBe(2);
    await engine.runner.catchUp();
    const old = await row(engine, 'm1');
    expect(old.archived?.reason).toBe('forgotten: deleted by hand');
    expect(readFileSync(join(memDir, '_archive', 'old-ci.md'), 'utf8')).toContain('CI runs on Jenkins\n');
    expect(existsSync(join(memDir, 'old-ci.md'))).toBe(false);
    const adopted = parseMemoryFile(readFileSync(join(memDir, 'café rules.md'), 'utf8'), 'café rules.md');
    expect(adopted).toMatchObject({ name: 'Café rules', description: 'the café closes at 5', type: 'user', body: 'Be home by 5.\n' });
    const index = readFileSync(join(memDir, 'MEMORY.md'), 'utf8');
    expect(index).toContain('- [café rules.md](café%20rules.md) — the café closes at 5');
    expect(index).toContain('- [Old CI](_archive/old-ci.md) — archived 2026-11-01: forgotten: deleted by hand');
    // Nothing more to say: a second round, and the index merged again, change nothing.
    const before = walkFiles(home.paths.claude);
    expect((await reconcileNow(engine, project)).appended).toBe(0);
    await engine.runner.rebuild();
    expect(walkFiles(home.paths.claude)).toEqual(before);
    await engine.close();
  });

  it('adopts a plain file the index already links, keeping the line\'s description, and never a file named like engram\'s own', async () => {
    const home = newHome();
    const memDir = join(home.paths.claude, dir);
    mkdirSync(memDir, { recursive: true });
    const index = '# Memory\n\n- [prefs.md](prefs.md) — how I like reviews\nfree text the user wrote\n';
    writeFileSync(join(memDir, 'MEMORY.md'), index);
    writeFileSync(join(memDir, 'prefs.md'), 'small PRs please\n');
    writeFileSync(join(memDir, 'auto-errors.md'), 'my own notes about errors\n');
    const engine = await open(home);
    const { appended, notes } = await reconcileNow(engine, project);
    expect(appended).toBe(1);
    expect(notes).toContain(`not adopted: ${dir}/auto-errors.md: the name is engram's own or another memory's`);
    expect(readFileSync(join(memDir, 'MEMORY.md'), 'utf8')).toBe(index);
    expect(parseMemoryFile(readFileSync(join(memDir, 'prefs.md'), 'utf8'), 'prefs.md')).toMatchObject({ name: 'prefs', description: 'how I like reviews', body: 'small PRs please\n' });
    expect(readFileSync(join(memDir, 'auto-errors.md'), 'utf8')).toBe('my own notes about errors\n');
    expect((await reconcileNow(engine, project)).appended).toBe(0);
    await engine.close();
  });

  it('does not read every memory file of a directory gone at once as each deleted by hand', async () => {
    const home = newHome();
    const engine = await open(home);
    await engine.record([proposed('m1', 'Old CI', 'CI runs on Jenkins'), proposed('m2', 'Staging', 'staging resets nightly')]);
    const memDir = join(home.paths.claude, dir);
    rmSync(join(memDir, 'old-ci.md'));
    rmSync(join(memDir, 'staging.md'));
    const { appended, notes } = await reconcileNow(engine, project);
    expect(appended).toBe(0);
    expect(notes).toEqual([`not recorded: all 2 memory files engram wrote in ${dir} are gone; \`engram memories forget\` archives memories one by one`]);
    await engine.close();
  });

  it('converts a standalone MEMORY.md to the index layout, keeping every other line where it stands', async () => {
    const home = newHome();
    const memDir = join(home.paths.claude, dir);
    mkdirSync(memDir, { recursive: true });
    const standalone = [
      '# Project memory',
      '',
      'Notes kept by hand.',
      '',
      '## Preferences',
      '- Always use pnpm, never npm',
      '- Prefer **small** commits',
      '  with a clear message',
      '',
      '## Project',
      '* The API lives in services/api',
      '',
    ].join('\n');
    writeFileSync(join(memDir, 'MEMORY.md'), standalone);
    const engine = await open(home);
    const { appended, notes } = await reconcileNow(engine, project);
    expect(appended).toBe(3);
    expect(notes).toContain(`converted ${dir}/MEMORY.md to the index layout: 3 inline entries became memory files`);
    const index = readFileSync(join(memDir, 'MEMORY.md'), 'utf8');
    const lines = index.split('\n');
    expect(lines.slice(0, 5)).toEqual(['# Project memory', '', 'Notes kept by hand.', '', '## Preferences']);
    expect(lines.filter((line) => line.startsWith('- ['))).toHaveLength(3);
    expect(index).toContain('## Project\n');
    expect(index).not.toContain('- Always use pnpm, never npm\n');
    // Nothing lost: each entry is a memory whose body is the entry as written.
    const files = walkFiles(memDir);
    const bodies = Object.entries(files).filter(([path]) => !path.endsWith('MEMORY.md')).map(([, text]) => parseMemoryFile(text, 'x.md'));
    expect(bodies.map((b) => b.body).sort()).toEqual(['* The API lives in services/api\n', '- Always use pnpm, never npm\n', '- Prefer **small** commits\n  with a clear message\n']);
    expect(bodies.find((b) => b.body.includes('pnpm'))!.type).toBe('user');
    expect((await reconcileNow(engine, project)).appended).toBe(0);
    const before = walkFiles(home.paths.claude);
    await engine.runner.rebuild();
    expect(walkFiles(home.paths.claude)).toEqual(before);
    await engine.close();
  });
});
