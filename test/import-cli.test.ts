import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMemoryFile } from '../src/memories/memory-file.js';
import { projectMemoryDir } from '../src/paths.js';
import { cliHere, drain, dumpLog, runHook, useTempHomes, walkFiles } from './support/temp-home.js';

const newHome = useTempHomes();
const NOW = '2026-11-01T10:00:00.000Z';

/** A memory directory as people have them: native files, richer ones, and everything that goes wrong. */
function writeSourceDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'native.md'), '---\nname: Testing\ndescription: run the tests with vitest\ntype: feedback\n---\nRun `npx vitest run`, never jest.\n');
  writeFileSync(
    join(dir, 'rich.md'),
    '---\nname: Payments\ndescription: amounts are integer cents\ntype: project\noriginSessionId: 0d1f\ntags: [money, api]\nmetadata:\n  modified: 2026-09-03\n  tier: fact\n  confidence: 0.9\n  related:\n    - "[[native]]"\n---\nAmounts are integer cents, never floats.\n',
  );
  writeFileSync(join(dir, 'broken.md'), '---\nname: [unclosed\ntype: feedback\n---\nThe frontmatter above is not YAML.\n');
  writeFileSync(join(dir, 'blob.md'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0x10]));
  writeFileSync(join(dir, 'big.md'), `---\nname: Huge\ndescription: a dump\ntype: reference\n---\n${'x'.repeat(2 * 1024 * 1024)}\n`);
  writeFileSync(join(dir, 'my notes.md'), '---\nname: My notes\ndescription: notes with spaces in the name\ntype: user\n---\nI review PRs in the morning.\n');
  writeFileSync(join(dir, 'ünïcødé 日本.md'), '---\nname: Unicode\ndescription: a file named in unicode\ntype: user\n---\n日本語のメモ\n');
  writeFileSync(join(dir, 'picture.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]));
  writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n\nKept by hand.\n\n- Always squash-merge pull requests\n- The staging database resets nightly\n');
}

function bytesOf(dir: string): Record<string, string> {
  return walkFiles(dir);
}

describe('engram import', () => {
  it('imports a directory from elsewhere, reports what it cannot read, and a second import changes nothing', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const source = join(home.root, 'old-memories');
    writeSourceDir(source);
    const sourceBefore = bytesOf(source);
    const project = join(home.root, 'repo');
    mkdirSync(project);

    const first = await cliHere(['import', source, '--project', project], home.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('imported: Testing ← native.md\n');
    expect(first.stdout).toContain('imported: Payments ← rich.md\n');
    expect(first.stdout).toMatch(/imported: broken ← broken\.md \(read as type unknown: invalid YAML/);
    expect(first.stdout).toContain('imported: My notes ← my notes.md\n');
    expect(first.stdout).toContain('imported: Unicode ← ünïcødé 日本.md\n');
    expect(first.stdout).toContain('imported: Always squash-merge pull requests ← MEMORY.md (inline entry)\n');
    expect(first.stdout).toContain('not imported, left as it is: blob.md: binary (contains NUL bytes)\n');
    expect(first.stdout).toMatch(/not imported, left as it is: big\.md: too large: 2097153 characters, over the 64000-character cap/);
    expect(first.stdout).toContain('not imported, left as it is: picture.png: not a memory file (not-markdown)\n');
    expect(first.stdout).toContain('7 imported, 0 already there, 3 reported; 7 events recorded');
    // The source is read, never written.
    expect(bytesOf(source)).toEqual(sourceBefore);

    const target = join(home.paths.claude, projectMemoryDir(project));
    const rich = parseMemoryFile(readFileSync(join(target, 'rich.md'), 'utf8'), 'rich.md');
    expect(rich).toMatchObject({ name: 'Payments', type: 'project', tier: 'fact', confidence: 0.9, body: 'Amounts are integer cents, never floats.\n' });
    expect(rich.extra.top).toEqual([{ key: 'originSessionId', value: '0d1f' }, { key: 'tags', value: ['money', 'api'], flow: true }]);
    expect(rich.extra.metadata).toContainEqual({ key: 'related', value: ['[[native]]'] });
    const broken = parseMemoryFile(readFileSync(join(target, 'broken.md'), 'utf8'), 'broken.md');
    expect(broken).toMatchObject({ type: 'unknown', body: '---\nname: [unclosed\ntype: feedback\n---\nThe frontmatter above is not YAML.\n' });
    expect(readFileSync(join(target, 'my notes.md'), 'utf8')).toContain('I review PRs in the morning.\n');
    expect(readFileSync(join(target, 'ünïcødé 日本.md'), 'utf8')).toContain('日本語のメモ\n');
    const index = readFileSync(join(target, 'MEMORY.md'), 'utf8');
    expect(index).toContain('- [my notes.md](my%20notes.md) — notes with spaces in the name\n');
    expect(index).toContain('- [ünïcødé 日本.md](ünïcødé%20日本.md) — a file named in unicode\n');

    const targetBefore = walkFiles(home.paths.claude);
    const eventsBefore = (await dumpLog(home.env)).length;
    const second = await cliHere(['import', source, '--project', project], home.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('0 imported, 7 already there, 3 reported; 0 events recorded');
    expect((await dumpLog(home.env)).length).toBe(eventsBefore);
    expect(walkFiles(home.paths.claude)).toEqual(targetBefore);
    expect(bytesOf(source)).toEqual(sourceBefore);
  });

  it('imports a project\'s own memory directory in place: the malformed, binary and 2 MB files are never rewritten, MEMORY.md is converted', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const project = join(home.root, 'repo');
    mkdirSync(project);
    const memDir = join(home.paths.claude, projectMemoryDir(project));
    writeSourceDir(memDir);
    const before = bytesOf(memDir);

    const first = await cliHere(['import', memDir, '--project', project], home.env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('7 imported, 0 already there, 3 reported; 7 events recorded');
    const after = bytesOf(memDir);
    for (const untouched of ['memory/broken.md', 'memory/blob.md', 'memory/big.md', 'memory/picture.png']) expect(after[untouched]).toBe(before[untouched]);
    // Written back in Claude Code's format with engram's metadata; every field and the body kept.
    for (const file of ['native.md', 'rich.md', 'my notes.md', 'ünïcødé 日本.md']) {
      const was = parseMemoryFile(before[`memory/${file}`]!, file);
      const is = parseMemoryFile(after[`memory/${file}`]!, file);
      expect({ name: is.name, description: is.description, type: is.type, body: is.body }).toEqual({ name: was.name, description: was.description, type: was.type, body: was.body });
    }
    const index = after['memory/MEMORY.md']!;
    expect(index.startsWith('# Memory\n\nKept by hand.\n\n- [')).toBe(true);
    expect(index).not.toContain('- Always squash-merge pull requests\n');
    expect(index).toContain('- [broken.md](broken.md)');
    const converted = Object.entries(after).filter(([path]) => path.includes('squash'));
    expect(converted).toHaveLength(1);
    expect(parseMemoryFile(converted[0]![1], 'x.md').body).toBe('- Always squash-merge pull requests\n');

    const eventsBefore = (await dumpLog(home.env)).length;
    const second = await cliHere(['import', memDir, '--project', project], home.env);
    expect(second.stdout).toMatch(/0 imported, \d+ already there, 3 reported; 0 events recorded/);
    const reconcile = await cliHere(['reconcile', '--project', project], home.env);
    expect(reconcile.code).toBe(0);
    expect(reconcile.stdout).toContain('0 events recorded');
    expect((await dumpLog(home.env)).length).toBe(eventsBefore);
    expect(bytesOf(memDir)).toEqual(after);
  });

  it('keeps a hand edit through `engram rebuild`, byte for byte, and says when a directory cannot be read', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const source = join(home.root, 'old');
    mkdirSync(source);
    writeFileSync(join(source, 'native.md'), '---\nname: Testing\ndescription: run the tests with vitest\ntype: feedback\n---\nRun `npx vitest run`.\n');
    const project = join(home.root, 'repo');
    expect((await cliHere(['import', source, '--project', project], home.env)).code).toBe(0);
    const file = join(home.paths.claude, projectMemoryDir(project), 'native.md');
    const edited = readFileSync(file, 'utf8').replace(/---\nRun `npx vitest run`\.\n$/, '---\nRun `npx vitest run --changed`.\nOnly the changed files, please.\n');
    writeFileSync(file, edited);

    const rebuild = await cliHere(['rebuild'], home.env);
    expect(rebuild.code).toBe(0);
    expect(rebuild.stderr).toContain('recorded 1 changes made by hand to memory files before rebuilding');
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect((await dumpLog(home.env)).filter((e) => e.type === 'MemoryEdited').map((e) => e.data.by)).toEqual(['hand']);
    const again = await cliHere(['rebuild'], home.env);
    expect(again.stderr).not.toContain('recorded');
    expect(readFileSync(file, 'utf8')).toBe(edited);

    const missing = await cliHere(['import', join(home.root, 'nowhere'), '--project', project], home.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^engram: cannot read memory directory .*nowhere/);
    const usage = await cliHere(['import', source, '--global', '--project', project], home.env);
    expect(usage.code).toBe(2);
    // The same directory into the global one: another target, so other memories.
    const global = await cliHere(['import', source, '--global'], home.env);
    expect(global.code).toBe(0);
    expect(global.stdout).toContain(`1 imported, 0 already there, 0 reported; 1 events recorded; into ${join(home.paths.claude, 'engram', 'memory')}`);
    expect(parseMemoryFile(readFileSync(join(home.paths.claude, 'engram', 'memory', 'native.md'), 'utf8'), 'native.md').body).toBe('Run `npx vitest run`.\n');
  });

  it('records a memory file the agent wrote with Write, seen by the real PostToolUse hook, as the agent\'s edit', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const source = join(home.root, 'old');
    mkdirSync(source);
    writeFileSync(join(source, 'deploys.md'), '---\nname: Deploys\ndescription: when deploys happen\ntype: project\n---\nAfter 14:00.\n');
    const project = join(home.root, 'repo');
    expect((await cliHere(['import', source, '--project', project], home.env)).code).toBe(0);
    const file = join(home.paths.claude, projectMemoryDir(project), 'deploys.md');
    const byAgent = readFileSync(file, 'utf8').replace(/---\nAfter 14:00\.\n$/, '---\nAfter 15:00 since November.\n');
    writeFileSync(file, byAgent);
    const hook = await runHook(
      'PostToolUse',
      { session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: project, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'After 15:00 since November.' }, tool_response: {}, tool_use_id: 'toolu_1' },
      home.env,
    );
    expect(hook.code).toBe(0);
    await drain(home.env);
    const log = await dumpLog(home.env);
    expect(log.filter((e) => e.type === 'MemoryEdited').map((e) => [e.data.by, e.data.body])).toEqual([['agent', 'After 15:00 since November.\n']]);
    expect(readFileSync(file, 'utf8')).toBe(byAgent);
    await drain(home.env);
    expect((await dumpLog(home.env)).length).toBe(log.length);
  });
});
