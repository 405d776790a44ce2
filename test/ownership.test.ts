import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { projectMemoryDir } from '../src/paths.js';
import type { MemoryRow } from '../src/projections/memories/memory-row.js';
import { openEngine } from '../src/composition/open-engine.js';
import { reconcileNow } from '../src/commands/reconcile-command.js';
import { cliHere, cliPath, drain, dumpLog, type TempHome, useTempHomes } from './support/temp-home.js';

const newHome = useTempHomes();
const project = '/home/dev/src/shop';
const dir = projectMemoryDir(project);
const isRoot = process.getuid?.() === 0;

let seq = 0;
/** Events handed to the worker the way hooks hand them: one spool file each. */
function spool(home: TempHome, events: Array<{ type: string; data: unknown; ts?: string; id?: string }>): void {
  mkdirSync(home.paths.spoolNew, { recursive: true });
  for (const event of events) {
    const n = ++seq;
    const envelope = { id: event.id ?? `own-${process.pid}-${String(n).padStart(6, '0')}`, type: event.type, schemaVersion: 1, ts: event.ts ?? `2026-11-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`, session: '', project, data: event.data };
    writeFileSync(join(home.paths.spoolNew, `${String(1_700_000_000_000_000 + n)}-1-${String(n).padStart(8, '0')}.json`), JSON.stringify(envelope));
  }
}

const proposed = (memoryId: string, name: string, description: string) => ({
  type: 'MemoryProposed',
  data: { memoryId, origin: 'user', scope: 'project', name, description, type: 'feedback', body: `${description}\n`, status: 'active', confidence: 0.6 },
});

function memDir(home: TempHome): string {
  return join(home.paths.claude, dir);
}

/** A person's edit: a line added to the body, everything else as it was. */
function handEdit(path: string, line: string): string {
  const edited = `${readFileSync(path, 'utf8')}${line}\n`;
  writeFileSync(path, edited);
  return edited;
}

function leftovers(path: string): string[] {
  return existsSync(path) ? readdirSync(path).filter((name) => name.startsWith('.engram-') || name.endsWith('.tmp')) : [];
}

describe('whose a file is (src/ownership)', () => {
  it('keeps a hand edit not yet reconciled when the memories projection starts over (rebuild, state lost), and records it', async () => {
    const home = newHome();
    spool(home, [proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    await drain(home.env);
    const file = join(memDir(home), 'use-pnpm.md');
    const edited = handEdit(file, 'Also never yarn. HAND-1');
    // Starts over before any reconcile saw the edit: the same reset as a new projectorVersion.
    expect((await cliHere(['rebuild', '--only', 'memories'], home.env)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(edited);
    // The projection state gone whole (unreadable, deleted): still the person's.
    const again = handEdit(file, 'HAND-2');
    rmSync(home.paths.state, { recursive: true, force: true });
    await drain(home.env);
    expect(readFileSync(file, 'utf8')).toContain('HAND-2');
    const edits = (await dumpLog(home.env)).filter((e) => e.type === 'MemoryEdited');
    expect(edits.length).toBeGreaterThanOrEqual(1);
    expect(edits.at(-1)!.data.body).toContain('HAND-2');
    // And a rebuild from the log alone writes it back.
    expect((await cliHere(['rebuild'], home.env)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(again);
  }, 120_000);

  it('never deletes a hand-edited file when the memory is forgotten and the projection rebuilt', async () => {
    const home = newHome();
    spool(home, [proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    await drain(home.env);
    const file = join(memDir(home), 'use-pnpm.md');
    const edited = handEdit(file, 'Mine. HAND-FORGET');
    expect((await cliHere(['memories', 'forget', 'Use pnpm', '--project', project], home.env)).code).toBe(0);
    expect((await cliHere(['rebuild'], home.env)).code).toBe(0);
    const kept = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const archived = existsSync(join(memDir(home), '_archive', 'use-pnpm.md')) ? readFileSync(join(memDir(home), '_archive', 'use-pnpm.md'), 'utf8') : '';
    // The person's words are on disk: where they wrote them, or moved whole into _archive/ once recorded.
    expect(kept === edited || archived.includes('HAND-FORGET')).toBe(true);
    expect(kept === edited || (await dumpLog(home.env)).some((e) => e.type === 'MemoryEdited' && String(e.data.body).includes('HAND-FORGET'))).toBe(true);
  }, 120_000);

  it.skipIf(!isRoot)('puts back a save that lands while the sink replaces the file (held before its rename with strace), and records it', async () => {
    const home = newHome();
    spool(home, [proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    await drain(home.env);
    const file = join(memDir(home), 'use-pnpm.md');
    const before = readFileSync(file, 'utf8');
    const theirs = `${before}SAVED-DURING-WRITE\n`;
    // The window between engram's look and its rename, held open 1.5 s: strace delays the return of
    // the one syscall that names this file just before the rename (the hard link to the file as it
    // was; nothing runs between it and the rename), so the command's other renames (LevelDB's,
    // the views') are not slowed as a delay on every rename would.
    const child = spawn('strace', ['-f', '--seccomp-bpf', '-qq', '-o', '/dev/null', '-P', file, '-e', 'trace=link', '-e', 'inject=link:delay_exit=1500000', process.execPath, cliPath, 'memories', 'reinforce', 'Use pnpm', '--project', project], { env: home.env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let saved = false;
    for (let i = 0; i < 600 && !saved; i++) {
      if (leftovers(memDir(home)).some((name) => name.endsWith('.old'))) {
        // The person's editor writes the file in place while engram's rename waits (its hard link made).
        writeFileSync(file, theirs);
        saved = true;
      } else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(saved).toBe(true);
    expect(await exited).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    expect(leftovers(memDir(home))).toEqual([]);
    await drain(home.env);
    const edits = (await dumpLog(home.env)).filter((e) => e.type === 'MemoryEdited');
    expect(edits).toHaveLength(1);
    expect(edits[0]!.data.body).toContain('SAVED-DURING-WRITE');
    expect(readFileSync(file, 'utf8')).toContain('SAVED-DURING-WRITE');
  }, 120_000);

  it('imports a file under another name when the person already has one by that name: both texts survive', async () => {
    const home = newHome();
    spool(home, [proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    await drain(home.env);
    const mine = '---\nname: Team\ndescription: who is on my team\ntype: user\n---\nAda and Grace. MY-TEAM\n';
    writeFileSync(join(memDir(home), 'team.md'), mine);
    const source = join(home.root, 'elsewhere');
    mkdirSync(source);
    writeFileSync(join(source, 'team.md'), '---\nname: Team (imported)\ndescription: the imported team\ntype: project\n---\nLinus and Ken. IMPORTED-TEAM\n');
    const result = await cliHere(['import', source, '--project', project], home.env);
    expect(result.code).toBe(0);
    await drain(home.env);
    // Adopted in place (recorded as an event first), the person's words stay theirs.
    const team = readFileSync(join(memDir(home), 'team.md'), 'utf8');
    expect(team).toContain('Ada and Grace. MY-TEAM');
    expect(team).toContain('description: who is on my team');
    const others = readdirSync(memDir(home)).filter((name) => name !== 'team.md' && name.endsWith('.md')).map((name) => readFileSync(join(memDir(home), name), 'utf8'));
    expect(others.some((text) => text.includes('IMPORTED-TEAM'))).toBe(true);
    const index = readFileSync(join(memDir(home), 'MEMORY.md'), 'utf8');
    expect(index).not.toMatch(/\[team\.md\]\(team\.md\) — the imported team/);
  }, 120_000);

  it('keeps a file\'s mode and a symlinked MEMORY.md a link, its target updated', async () => {
    const home = newHome();
    const dotfiles = join(home.root, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(memDir(home), { recursive: true });
    writeFileSync(join(dotfiles, 'MEMORY.md'), '# kept in my dotfiles\n');
    symlinkSync(join(dotfiles, 'MEMORY.md'), join(memDir(home), 'MEMORY.md'));
    spool(home, [proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    await drain(home.env);
    const file = join(memDir(home), 'use-pnpm.md');
    chmodSync(file, 0o600);
    spool(home, [{ type: 'MemoryReinforced', data: { memoryId: 'm1', by: 'user' } }, proposed('m2', 'Money in cents', 'amounts are integer cents')]);
    await drain(home.env);
    expect(readFileSync(file, 'utf8')).toMatch(/reinforced: 1/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(memDir(home), 'MEMORY.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(memDir(home), 'MEMORY.md'))).toBe(join(dotfiles, 'MEMORY.md'));
    const target = readFileSync(join(dotfiles, 'MEMORY.md'), 'utf8');
    expect(target.startsWith('# kept in my dotfiles\n')).toBe(true);
    expect(target).toContain('(money-in-cents.md)');
  }, 120_000);
});

describe('a recorded hand edit', () => {
  const at = '2026-11-01T10:00:00.000Z';
  let n = 0;
  const envelope = (type: string, data: unknown): Envelope => ({ id: `evt-own-${String(++n).padStart(6, '0')}`, type, schemaVersion: 1, ts: at, session: 's1', project, data });

  it('takes in only the fields the person changed: a reinforcement that came in meanwhile stays', async () => {
    const home = newHome();
    const engine = await openEngine({ paths: home.paths, clock: fixedClock(new Date(at)), maintainEveryMs: Number.POSITIVE_INFINITY });
    try {
      await engine.record([envelope('MemoryProposed', { memoryId: 'm1', origin: 'user', scope: 'project', name: 'Use pnpm', description: 'use pnpm, not npm', type: 'feedback', body: 'use pnpm, not npm\n', status: 'active', confidence: 0.6 })]);
      await engine.record([envelope('MemoryReinforced', { memoryId: 'm1', by: 'user' })]);
      const file = join(home.paths.claude, dir, 'use-pnpm.md');
      expect(readFileSync(file, 'utf8')).toMatch(/confidence: 0.7/);
      handEdit(file, 'And never yarn.');
      // Reinforced again before the edit is reconciled: the file is the person's, left alone.
      await engine.record([envelope('MemoryReinforced', { memoryId: 'm1', by: 'user' })]);
      expect(readFileSync(file, 'utf8')).toMatch(/confidence: 0.7/);
      expect((await reconcileNow(engine, undefined)).appended).toBe(1);
      const row = (await engine.runner.rowsOf('memories').get('mem:m1')) as MemoryRow;
      expect(row).toMatchObject({ reinforced: 2, confidence: 0.8 });
      expect(row.body).toContain('And never yarn.');
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/confidence: 0.8/);
      expect(text).toMatch(/reinforced: 2/);
      expect(text).toContain('And never yarn.');
      // Nothing else happened: a second look records nothing.
      expect((await reconcileNow(engine, undefined)).appended).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it('never records an edit nobody made while the memories lane writes and commits beside the reconciler', async () => {
    const home = newHome();
    const engine = await openEngine({ paths: home.paths, clock: fixedClock(new Date(at)), maintainEveryMs: Number.POSITIVE_INFINITY });
    try {
      await engine.record([envelope('MemoryProposed', { memoryId: 'm1', origin: 'user', scope: 'project', name: 'Use pnpm', description: 'use pnpm, not npm', type: 'feedback', body: 'use pnpm, not npm\n', status: 'active', confidence: 0.1 })]);
      for (let i = 0; i < 20; i++) {
        // The lane writes and commits while the reconciler reads rows, ledger and files.
        await Promise.all([
          engine.record([envelope('MemoryReinforced', { memoryId: 'm1', by: 'user' }), envelope('MemoryProposed', { memoryId: `x${i}`, origin: 'user', scope: 'project', name: `Note ${i}`, description: `note ${i}`, type: 'project', body: `note ${i}\n`, status: 'active', confidence: 0.5 })]),
          reconcileNow(engine, undefined),
          reconcileNow(engine, undefined),
        ]);
      }
      const edited: Envelope[] = [];
      for await (const batch of engine.log.read()) edited.push(...batch.filter((e) => e.type === 'MemoryEdited' || (e.type === 'MemoryForgotten')));
      expect(edited).toEqual([]);
    } finally {
      await engine.close();
    }
  }, 180_000);
});

describe('a garbled MEMORY.md', () => {
  it('is reported, and keeps its bytes as they are (no U+FFFD): engram touches only its own lines', async () => {
    const home = newHome();
    spool(home, [proposed('m1', 'Use pnpm', 'use pnpm, not npm')]);
    await drain(home.env);
    const index = join(memDir(home), 'MEMORY.md');
    const junk = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x80, 0x0a, 0xc3, 0x28, 0x0a]);
    const garbled = Buffer.concat([readFileSync(index), junk]);
    writeFileSync(index, garbled);
    spool(home, [proposed('m2', 'Money in cents', 'amounts are integer cents')]);
    await drain(home.env);
    const after = readFileSync(index);
    const line = Buffer.from('- [money-in-cents.md](money-in-cents.md) — amounts are integer cents\n');
    // engram's new line among its own; every other byte where it was.
    const at = after.indexOf(line);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(Buffer.concat([after.subarray(0, at), after.subarray(at + line.length)]).equals(garbled)).toBe(true);
    expect(after.includes(Buffer.from('\uFFFD'))).toBe(false);
    const reconcile = await cliHere(['reconcile', '--project', project], home.env);
    expect(reconcile.stdout + reconcile.stderr).toMatch(/MEMORY\.md/);
    await cliHere(['rebuild'], home.env);
    expect(readFileSync(index).equals(after)).toBe(true);
  }, 120_000);
});
