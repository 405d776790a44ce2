import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { projectMemoryDir } from '../src/paths.js';
import type { MemoryRow } from '../src/projections/memories/memory-row.js';
import { maintain } from '../src/reactors/maintenance.js';
import { projectionHarness, type Harness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-maintain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const project = join(root, 'repo');
const dir = projectMemoryDir(project);

let seq = 0;
const proposed = (memoryId: string, name: string, description: string, at: string, extra: Record<string, unknown> = {}): Envelope => ({
  id: `evt-maint-${String(++seq).padStart(6, '0')}`, type: 'MemoryProposed', schemaVersion: 1, ts: at, session: '', project,
  data: { memoryId, origin: 'user', scope: 'project', name, description, type: 'project', body: `${description}\n`, status: 'active', confidence: 0.9, ...extra },
});

async function tick(h: Harness, at: string) {
  const runner = await h.runner();
  await runner.catchUp();
  const plan = (await maintain(runner, fixedClock(new Date(at)), {}))!;
  await h.log.append(plan.events);
  await runner.catchUp();
  const memories = new Map<string, MemoryRow>();
  for await (const [key, row] of runner.rowsOf('memories').entries('mem:')) memories.set(key.slice(4), row as MemoryRow);
  return { plan, memories };
}

describe('the maintenance tick', () => {
  it('archives what decayed, never what is pinned, and a tick recorded twice is stored once', async () => {
    const h = await projectionHarness(join(root, String(++n)));
    await h.log.append([
      proposed('old', 'Sprint goal', 'the sprint goal is the refund flow', '2026-06-01T00:00:00.000Z'),
      proposed('pinned', 'Release freeze', 'no merges on Fridays', '2026-06-01T00:00:00.000Z', { pinned: true }),
      proposed('fresh', 'Deploy window', 'deploys happen after 14:00', '2026-11-28T00:00:00.000Z'),
    ]);
    const { plan, memories } = await tick(h, '2026-12-01T00:00:00.000Z');
    expect(plan.actions).toEqual(['archived Sprint goal (strength 0.00)']);
    expect(memories.get('old')!.archived).toMatchObject({ reason: 'decayed' });
    expect(memories.get('pinned')!.archived).toBeUndefined();
    expect(existsSync(join(h.roots.claude, dir, '_archive', 'sprint-goal.md'))).toBe(true);
    expect(readFileSync(join(h.roots.claude, dir, 'MEMORY.md'), 'utf8')).toContain('- [Sprint goal](_archive/sprint-goal.md) — archived 2026-12-01: decayed');
    const appended = await h.log.append(plan.events);
    expect(appended.appended).toEqual([]);
    await h.close();
  });

  it('retires what an active memory contradicts, and the weaker of two near-duplicates', async () => {
    const h = await projectionHarness(join(root, String(++n)));
    await h.log.append([
      proposed('jenkins', 'CI on Jenkins', 'CI runs on Jenkins', '2026-11-01T00:00:00.000Z'),
      proposed('actions', 'CI on GitHub Actions', 'CI moved to GitHub Actions', '2026-11-20T00:00:00.000Z', { contradicts: ['CI on Jenkins'] }),
      proposed('tentative', 'Maybe Buildkite', 'CI might move to Buildkite', '2026-11-21T00:00:00.000Z', { status: 'provisional', confidence: 0.3, contradicts: ['CI on GitHub Actions'] }),
      proposed('dup1', 'Staging database', 'the staging database is reset every night', '2026-11-02T00:00:00.000Z', { confidence: 0.6 }),
      proposed('dup2', 'Staging database reset', 'staging database is reset every night at 2am', '2026-11-25T00:00:00.000Z', { type: 'reference' }),
    ]);
    const { memories } = await tick(h, '2026-11-30T00:00:00.000Z');
    expect(memories.get('jenkins')).toMatchObject({ status: 'superseded', supersededBy: 'CI on GitHub Actions' });
    // A provisional memory retires nothing until it is corroborated.
    expect(memories.get('actions')!.status).toBe('active');
    expect(memories.get('dup1')).toMatchObject({ status: 'superseded', supersededBy: 'Staging database reset' });
    expect(memories.get('dup2')!.status).toBe('active');
    expect(readFileSync(join(h.roots.claude, dir, '_archive', 'ci-on-jenkins.md'), 'utf8')).toContain('CI runs on Jenkins');
    await h.close();
  });
});
