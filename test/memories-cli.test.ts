import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectMemoryDir } from '../src/paths.js';
import { cliHere, drain, tempHome, type TempHome } from './support/temp-home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

const project = '/home/dev/src/shop';

function seeded(): TempHome {
  const h = tempHome();
  homes.push(h);
  mkdirSync(h.paths.spoolNew, { recursive: true });
  const memories = [
    ['m1', 'Use pnpm', 'use pnpm, not npm'],
    ['m2', 'Money in cents', 'amounts are integer cents'],
  ];
  memories.forEach(([memoryId, name, description], i) => {
    const event = {
      id: `seed-memory-${i}-000000`, type: 'MemoryProposed', schemaVersion: 1, ts: `2026-11-0${i + 1}T10:00:00.000Z`, session: '', project,
      data: { memoryId, origin: 'user', scope: 'project', name, description, type: 'feedback', body: `${description}\n`, status: 'active', confidence: 0.9 },
    };
    writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + i)}-1-0000000${i}.json`), JSON.stringify(event));
  });
  return h;
}

describe('engram memories', () => {
  it('lists, shows, pins, forgets and restores, the files following each step', async () => {
    const h = seeded();
    await drain(h.env);
    const env = { ...h.env, ENGRAM_NOW: '2026-11-10T00:00:00.000Z' };
    const list = await cliHere(['memories', 'list', '--project', project, '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((m: { name: string; status: string }) => [m.name, m.status])).toEqual([['Money in cents', 'active'], ['Use pnpm', 'active']]);
    const dir = join(h.paths.claude, projectMemoryDir(project));
    expect((await cliHere(['memories', 'show', 'use pnpm', '--project', project], env)).stdout).toContain('name: Use pnpm');
    expect((await cliHere(['memories', 'pin', 'use-pnpm.md', '--project', project], env)).stdout).toMatch(/^Use pnpm: pinned/);
    expect(readFileSync(join(dir, 'use-pnpm.md'), 'utf8')).toContain('pinned: true');
    const forget = await cliHere(['memories', 'forget', 'Money in cents', '--reason', 'we moved to decimals', '--project', project], env);
    expect(forget.stdout).toMatch(/forgotten \(moved to _archive\/, nothing deleted\)/);
    expect(existsSync(join(dir, 'money-in-cents.md'))).toBe(false);
    expect(readFileSync(join(dir, '_archive', 'money-in-cents.md'), 'utf8')).toContain('amounts are integer cents');
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toContain('- [Money in cents](_archive/money-in-cents.md) — archived 2026-11-10: forgotten: we moved to decimals');
    expect((await cliHere(['memories', 'restore', 'money-in-cents', '--project', project], env)).code).toBe(0);
    expect(existsSync(join(dir, 'money-in-cents.md'))).toBe(true);
    const history = await cliHere(['memories', 'show', 'money-in-cents', '--history', '--project', project], env);
    expect(history.stdout).toMatch(/# history[^]*created\s+MemoryProposed by user[^]*forgotten\s+MemoryForgotten: we moved to decimals\n[^]*restored\s+MemoryRestored\n$/);
    const unknown = await cliHere(['memories', 'pin', 'nothing like it', '--project', project], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no memory is called "nothing like it"');
  });

  it('finds a memory by the id it had before an earlier telling of the same lesson took it over', async () => {
    const h = tempHome();
    homes.push(h);
    mkdirSync(h.paths.spoolNew, { recursive: true });
    // The later telling is folded first (as on a machine that heard it first), then the earlier arrives.
    const tellings = [['evt-later-00000001', 'from now on use pnpm, not npm', '2026-11-02T10:00:00.000Z'], ['evt-earlier-000001', 'No, I told you to use pnpm, not npm!', '2026-11-01T10:00:00.000Z']];
    tellings.forEach(([id, prompt, ts], i) => {
      const event = { id, type: 'PromptSubmitted', schemaVersion: 2, ts, session: `s${i}`, project, data: { prompt, chars: prompt!.length, truncated: false } };
      writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + i)}-1-0000000${i}.json`), JSON.stringify(event));
    });
    await drain(h.env);
    const shown = await cliHere(['memories', 'show', 'correction:evt-later-00000001', '--project', project], h.env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('memory_id: correction:evt-earlier-000001');
    expect(shown.stdout).toContain('reinforced: 1');
  });
});
