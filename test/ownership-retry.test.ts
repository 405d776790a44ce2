import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectMemoryDir } from '../src/paths.js';
import { runHookHere } from './support/hook-here.js';
import { cliHere, cliPath, drain, dumpLog, useTempHomes, walkFiles } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const newHome = useTempHomes();
const project = '/home/dev/src/shop';
const dir = projectMemoryDir(project);

describe('a sink whose directory failed', () => {
  it('writes again until it lands: after `worker --drain` the files are what a fresh replay writes, with no further event', async () => {
    const home = newHome({ ENGRAM_NOW: '2026-11-01T12:00:00.000Z', ENGRAM_WORKER_IDLE_MS: '120000' });
    const memory = join(home.paths.claude, dir);
    // The prompt hook's built bundle run here (test/support/hook-here.ts): what is under test is
    // the worker's sink, not the hook's process; the spool file and the worker's nudge are the same.
    const prompt = (text: string) => runHookHere('UserPromptSubmit', { session_id: 's1', cwd: project, prompt: text }, home.env);
    await prompt('No, I told you to use pnpm, not npm!');
    await drain(home.env);
    const worker = spawn(process.execPath, [cliPath, 'worker'], { env: home.env, stdio: 'ignore' });
    const exited = new Promise((resolve) => worker.on('close', resolve));
    try {
      expect(await waitUntil(() => existsSync(home.paths.socket), 30_000)).toBe(true);
      // The directory replaced by a plain file for a while, as prompts (and a lesson) arrive.
      renameSync(memory, `${memory}.away`);
      writeFileSync(memory, 'not a directory');
      for (let i = 0; i < 4; i++) await prompt(`prompt number ${i} while the directory is gone`);
      await prompt('From now on always run the linter before committing.');
      // Asked every 200 ms, not 50: each look is a dump over the worker's socket, CPU the worker needs.
      expect(await waitUntil(async () => (await dumpLog(home.env)).filter((e) => e.type === 'PromptSubmitted').length >= 6, 30_000, 200)).toBe(true);
      // Until the worker has tried to write the memory directory and failed, as it reports, with
      // every event in (not a fixed wait that may end before or long after).
      expect(
        await waitUntil(async () => {
          const facts = JSON.parse((await cliHere(['worker', 'status', '--json'], home.env)).stdout) as { head: number; projectors: Array<{ name: string; seq: number; failedRows: unknown[] }> };
          const memories = facts.projectors.find((p) => p.name === 'memories')!;
          return memories.seq >= facts.head && memories.failedRows.length > 0;
        }, 30_000, 200),
      ).toBe(true);
      renameSync(memory, `${memory}.file`);
      renameSync(`${memory}.away`, memory);
      const before = (await dumpLog(home.env)).length;
      await drain(home.env);
      expect((await dumpLog(home.env)).length - before).toBeLessThanOrEqual(1);
    } finally {
      await cliHere(['worker', 'stop'], home.env);
      await exited;
    }
    const head = (await dumpLog(home.env)).length;
    const out = join(home.root, 'replayed');
    mkdirSync(out);
    expect((await cliHere(['replay', '--until', String(head), '--out', out], home.env)).code).toBe(0);
    const live = walkFiles(memory);
    expect(Object.keys(live).some((name) => /linter/.test(live[name]!))).toBe(true);
    expect(live).toEqual(walkFiles(join(out, 'claude', dir)));
  }, 180_000);
});
