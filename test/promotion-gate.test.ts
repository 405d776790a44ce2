import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { DistillAnswer } from '../src/events/distill-events.js';
import type { Envelope } from '../src/events/envelope.js';
import { parseMemoryFile } from '../src/memories/memory-file.js';
import { projectMemoryDir } from '../src/paths.js';
import { maintain } from '../src/reactors/maintenance.js';
import { projectionHarness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-gate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const project = '/home/dev/src/payments';
const dir = projectMemoryDir(project);

let seq = 0;
const event = (type: string, session: string, data: unknown, ts: string): Envelope => ({
  id: `evt-gate-${String(++seq).padStart(6, '0')}`, type, schemaVersion: 1, ts, session, project, data,
});
const completed = (session: string, ts: string, answer: DistillAnswer) =>
  event('DistillCompleted', session, { upToSeq: 10, attempt: 1, via: 'llm', raw: JSON.stringify(answer), answer, notes: [] }, ts);

const pnpm = { type: 'feedback' as const, name: 'Install with pnpm', description: 'use pnpm, not npm, to install packages in this repo', body: 'npm breaks the lockfile.' };
const episode = (name: string) => ({ name, description: `what happened: ${name}`, body: `${name}, in detail.` });

describe('the promotion gate', () => {
  it('makes the episode active, a new candidate provisional and out of MEMORY.md, then active when a later session says it again', async () => {
    const h = await projectionHarness(join(root, 'a'));
    await h.log.append([
      completed('s-one', '2026-11-02T10:00:00.000Z', {
        episode: { ...episode('Fixed the refund rounding bug'), graph: { entities: [{ name: 'src/refunds.ts', type: 'file' }], relations: [] } },
        candidates: [{ ...pnpm, graph: { entities: [{ name: 'pnpm', type: 'tool' }], relations: [{ src: 'payments', rel: 'uses', dst: 'pnpm' }] } }],
      }),
    ]);
    const runner = await h.runner();
    await runner.catchUp();
    const index = () => readFileSync(join(h.roots.claude, dir, 'MEMORY.md'), 'utf8');
    const candidate = () => parseMemoryFile(readFileSync(join(h.roots.claude, dir, 'install-with-pnpm.md'), 'utf8'), 'install-with-pnpm.md');
    expect(candidate()).toMatchObject({ status: 'provisional', confidence: 0.3 });
    expect(index()).toContain('fixed-the-refund-rounding-bug.md');
    expect(index()).not.toContain('install-with-pnpm.md');
    expect(JSON.parse(readFileSync(join(h.roots.claude, dir, '_graph', 'install-with-pnpm.md.json'), 'utf8'))).toMatchObject({
      entities: [{ name: 'pnpm', type: 'tool' }],
    });
    expect(readFileSync(join(h.roots.views, 'summary', '-home-dev-src-payments.md'), 'utf8')).toContain('provisional, awaiting corroboration: 1 memory');

    // The same session saying it again is not corroboration.
    await h.log.append([completed('s-one', '2026-11-02T11:00:00.000Z', { episode: episode('Fixed the refund rounding bug'), candidates: [{ ...pnpm, name: 'Use pnpm to install' }] })]);
    await runner.catchUp();
    expect(candidate()).toMatchObject({ status: 'provisional', confidence: 0.3 });

    await h.log.append([
      completed('s-two', '2026-11-05T10:00:00.000Z', { episode: episode('Added the payouts report'), candidates: [{ ...pnpm, name: 'pnpm for installs', body: 'again' }] }),
    ]);
    await runner.catchUp();
    expect(candidate()).toMatchObject({ status: 'active', confidence: 0.4, reinforced: 1, last_reinforced: '2026-11-05T10:00:00.000Z' });
    expect(index()).toContain('install-with-pnpm.md');
    expect(existsSync(join(h.roots.claude, dir, 'pnpm-for-installs.md'))).toBe(false);
    await h.close();
  });

  it('retires a contradicted memory only once the contradicting one is corroborated', async () => {
    const h = await projectionHarness(join(root, 'b'));
    const oldRule = { memoryId: 'm-old', origin: 'user', scope: 'project', name: 'Deploy with make deploy', description: 'run make deploy from a laptop to ship', type: 'project', body: 'make deploy\n', status: 'active', confidence: 0.8 };
    const contradiction = { type: 'project' as const, name: 'Deploys go through CI only', description: 'ship through the deploy workflow in CI, never from a laptop', body: 'The deploy workflow.', contradicts: ['Deploy with make deploy'] };
    await h.log.append([
      event('MemoryProposed', '', oldRule, '2026-11-01T09:00:00.000Z'),
      completed('s-one', '2026-11-02T10:00:00.000Z', { episode: episode('Moved deploys to CI'), candidates: [contradiction] }),
    ]);
    const runner = await h.runner();
    await runner.catchUp();
    const tick = async (at: string) => {
      const plan = await maintain(runner, fixedClock(new Date(at)), { network: false });
      await h.log.append(plan!.events);
      await runner.catchUp();
    };
    await tick('2026-11-03T00:00:00.000Z');
    expect(existsSync(join(h.roots.claude, dir, 'deploy-with-make-deploy.md'))).toBe(true);

    await h.log.append([completed('s-two', '2026-11-06T10:00:00.000Z', { episode: episode('Shipped v2'), candidates: [{ ...contradiction, name: 'CI-only deploys' }] })]);
    await runner.catchUp();
    await tick('2026-11-07T00:00:00.000Z');
    expect(existsSync(join(h.roots.claude, dir, 'deploy-with-make-deploy.md'))).toBe(false);
    const archived = parseMemoryFile(readFileSync(join(h.roots.claude, dir, '_archive', 'deploy-with-make-deploy.md'), 'utf8'), 'x.md');
    expect(archived).toMatchObject({ status: 'superseded', superseded_by: 'Deploys go through CI only', body: 'make deploy\n' });
    await h.close();
  });

  it('turns CLAUDE.md and knowledge candidates into proposals the summary counts, and writes no file for them', async () => {
    const h = await projectionHarness(join(root, 'c'));
    await h.log.append([
      completed('s-one', '2026-11-02T10:00:00.000Z', {
        episode: episode('Reviewed the ledger'),
        candidates: [
          { type: 'project', name: 'Ledger migrations are concurrent', description: 'every ledger migration is concurrent', body: 'Use CREATE INDEX CONCURRENTLY.', destination: 'claude_md' },
          { type: 'insight', name: 'Why cents', description: 'money is integer cents', body: 'Floats lose cents.', destination: 'knowledge' },
          { type: 'insight', name: 'Nothing', description: 'not worth keeping', body: '-', destination: 'skip' },
        ],
      }),
    ]);
    const runner = await h.runner();
    await runner.catchUp();
    const routes: unknown[] = [];
    for await (const [key, row] of runner.rowsOf('memories').entries('route:')) routes.push([key, row]);
    expect(routes).toHaveLength(2);
    expect(readFileSync(join(h.roots.views, 'summary', '-home-dev-src-payments.md'), 'utf8')).toContain('proposed for CLAUDE.md or docs/knowledge/: 2');
    expect(existsSync(join(h.roots.claude, dir, 'ledger-migrations-are-concurrent.md'))).toBe(false);
    expect(existsSync(join(h.roots.claude, dir, 'nothing.md'))).toBe(false);
    await h.close();
  });
});
