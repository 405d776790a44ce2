import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectMemoryDir } from '../src/paths.js';
import { cliHere, drain, repoRoot, tempHome, type TempHome } from './support/temp-home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

const project = '/home/dev/src/shop';

describe('engram graph backfill', () => {
  it('asks for the graphs of memories without one, six a call, writes their sidecars, and asks nothing the second time', async () => {
    const h = tempHome();
    homes.push(h);
    mkdirSync(h.paths.spoolNew, { recursive: true });
    const subjects = ['billing', 'search', 'checkout', 'inventory', 'shipping', 'reviews', 'payouts'];
    const stores = ['postgres', 'elasticsearch', 'redis', 'mysql', 'dynamodb', 'mongodb', 'sqlite'];
    const ids = subjects.map((_, i) => `m${i + 1}`);
    ids.forEach((memoryId, i) => {
      writeFileSync(join(h.paths.spoolNew, `${1_700_000_000_000_000 + i}-1-0000000${i}.json`), JSON.stringify({
        id: `seed-graph-${i}-000000`, type: 'MemoryProposed', schemaVersion: 1, ts: `2026-11-0${i + 1}T10:00:00.000Z`, session: '', project,
        data: { memoryId, origin: 'user', scope: 'project', name: `${subjects[i]} on ${stores[i]}`, description: `${subjects[i]} ${stores[i]}`, type: 'project', body: `${subjects[i]} depends on ${stores[i]}.\n`, status: 'active', confidence: 0.9 },
      }));
    });
    const graphs = ids.map((id, i) => ({
      id,
      entities: [{ name: subjects[i]!, type: 'service' }, { name: stores[i]!, type: 'service' }, { name: 'x', type: 'planet' }],
      relations: [{ src: subjects[i]!, rel: 'depends_on', dst: stores[i]! }],
    }));
    const answers = join(h.root, 'answers.json');
    writeFileSync(answers, JSON.stringify({ 'You extract knowledge graphs': { graphs } }));
    const calls = join(h.root, 'calls');
    const env = { ...h.env, ENGRAM_DISTILLER: '', ENGRAM_LLM_CMD: `${process.execPath} ${join(repoRoot, 'fixtures', 'fake-llm', 'fake-llm.mjs')}`, FAKE_LLM_ANSWERS: answers, FAKE_LLM_CALLS: calls };
    await drain(env);
    const first = await cliHere(['graph', 'backfill', '--project', project], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('7 graphs recorded of 7 memories without one');
    expect(Number(readFileSync(calls, 'utf8'))).toBe(2);
    const dir = join(h.paths.claude, projectMemoryDir(project), '_graph');
    const sidecar = JSON.parse(readFileSync(join(dir, 'inventory-on-mysql.md.json'), 'utf8'));
    expect(sidecar).toEqual({
      memoryId: 'm4', file: 'inventory-on-mysql.md',
      entities: [{ name: 'inventory', type: 'service' }, { name: 'mysql', type: 'service' }],
      relations: [{ src: 'inventory', rel: 'depends_on', dst: 'mysql' }],
    });
    const again = await cliHere(['graph', 'backfill', '--project', project], env);
    expect(again.stdout).toContain('0 graphs recorded of 0 memories');
    expect(Number(readFileSync(calls, 'utf8'))).toBe(2);
    expect((await cliHere(['graph', 'backfill'], { ...env, ENGRAM_LLM_CMD: '' })).code).toBe(1);
    expect(existsSync(join(dir, 'billing-on-postgres.md.json'))).toBe(true);
  });
});
