import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectMemoryDir } from '../src/paths.js';
import { cliPath, drain, dumpLog, runCli, runCommand, runHook, useTempHomes, walkFiles, type TempHome } from './support/temp-home.js';

const newHome = useTempHomes();
const project = '/home/dev/src/shop';
const dir = projectMemoryDir(project);
const isRoot = process.getuid?.() === 0;
const NOW = '2026-11-01T12:00:00.000Z';

let seq = 0;
function spool(home: TempHome, events: Array<{ type: string; data: unknown }>): void {
  mkdirSync(home.paths.spoolNew, { recursive: true });
  for (const event of events) {
    const n = ++seq;
    const envelope = { id: `crash-${process.pid}-${String(n).padStart(6, '0')}`, type: event.type, schemaVersion: 1, ts: `2026-11-01T10:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`, session: '', project, data: event.data };
    writeFileSync(join(home.paths.spoolNew, `${String(1_700_000_000_000_000 + n)}-1-${String(n).padStart(8, '0')}.json`), JSON.stringify(envelope));
  }
}

function leftovers(path: string): string[] {
  return existsSync(path) ? readdirSync(path).filter((name) => name.startsWith('.engram-') || name.endsWith('.tmp') || name.endsWith('.old')) : [];
}

/**
 * DESIGN.md invariant 6 with issue 19's sink case: a kill -9 at a step of a sink's write and
 * commit (injected by strace on the syscalls around it) leaves no file flagged as someone
 * else's, no MemoryEdited nobody made, no temporary file behind, and the files a fresh replay
 * writes.
 */
describe('a kill -9 between a sink\'s writes and its commit', () => {
  it.skipIf(!isRoot)('leaves no stale or foreign file, no temporary file, and the files a replay makes', async () => {
    const home = newHome({ ENGRAM_NOW: NOW });
    const memory = join(home.paths.claude, dir);
    spool(home, [{ type: 'MemoryProposed', data: { memoryId: 'm1', origin: 'user', scope: 'project', name: 'Use pnpm', description: 'use pnpm, not npm', type: 'feedback', body: 'use pnpm, not npm\n', status: 'active', confidence: 0.5 } }]);
    await runHook('UserPromptSubmit', { session_id: 's1', cwd: project, prompt: 'hello there, first prompt' }, home.env);
    await drain(home.env);
    const points = [['link', 1], ['rename', 2], ['unlink', 1], ['fsync', 2], ['rename', 3]] as const;
    let killed = 0;
    for (const [i, [syscall, when]] of points.entries()) {
      spool(home, [
        { type: 'MemoryReinforced', data: { memoryId: 'm1', by: 'user' } },
        { type: 'MemoryProposed', data: { memoryId: `n${i}`, origin: 'user', scope: 'project', name: `Note ${i}`, description: `note number ${i}`, type: 'project', body: `note ${i}\n`, status: 'active', confidence: 0.5 } },
      ]);
      await runHook('UserPromptSubmit', { session_id: 's1', cwd: project, prompt: `prompt number ${i} about pnpm` }, home.env);
      const run = await runCommand('strace', ['-f', '-qq', '-o', '/dev/null', '-e', `trace=${syscall}`, '-e', `inject=${syscall}:signal=SIGKILL:when=${when}`, process.execPath, cliPath, 'worker', '--drain'], { env: home.env });
      if (run.signal === 'SIGKILL' || run.code === 137 || run.code === null) killed++;
      await drain(home.env);
    }
    expect(killed).toBeGreaterThan(0);
    expect(leftovers(memory)).toEqual([]);
    expect((await dumpLog(home.env)).filter((e) => e.type === 'MemoryEdited')).toEqual([]);
    const doctor = await runCli(['doctor'], home.env);
    expect(doctor.stdout + doctor.stderr).not.toMatch(/changed by someone/);
    // What a replay of the whole log writes, in a directory of its own.
    const head = (await dumpLog(home.env)).length;
    const out = join(home.root, 'replayed');
    expect((await runCli(['replay', '--until', String(head), '--out', out], home.env)).code).toBe(0);
    const live = walkFiles(memory);
    const replayed = walkFiles(join(out, 'claude', dir));
    expect(live).toEqual(replayed);
  }, 300_000);
});
