import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectMemoryDir, projectSlug } from '../src/paths.js';
import { cliHere, drain, tempHome, type TempHome } from './support/temp-home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

const project = '/home/dev/src/payments';

/** Events as a hook or a command would leave them: spool files the worker ingests. */
function seeded(): TempHome {
  const h = tempHome();
  homes.push(h);
  mkdirSync(h.paths.spoolNew, { recursive: true });
  let n = 0;
  const spool = (type: string, data: unknown, where = project) => {
    n++;
    const event = { id: `seed-graph-cli-${String(n).padStart(4, '0')}`, type, schemaVersion: 1, ts: `2026-11-0${Math.min(9, n)}T10:00:00.000Z`, session: '', project: where, data };
    writeFileSync(join(h.paths.spoolNew, `${1_700_000_000_000_000 + n}-1-${String(n).padStart(8, '0')}.json`), JSON.stringify(event));
  };
  const memory = (memoryId: string, name: string, status = 'active', global = false) =>
    spool('MemoryProposed', { memoryId, origin: 'user', scope: global ? 'global' : 'project', name, description: name, type: 'project', body: `${name}\n`, status, confidence: 0.9 }, global ? '' : project);
  const graph = (memoryId: string, entities: string[][], relations: string[][] = []) =>
    spool('MemoryGraphed', {
      memoryId,
      graph: { entities: entities.map(([name, type]) => ({ name, type })), relations: relations.map(([src, rel, dst]) => ({ src, rel, dst })) },
    });
  memory('m1', 'Pool size is 20');
  graph('m1', [['src/db/pool.ts', 'file'], ['Postgres', 'service']], [['src/db/pool.ts', 'configures', 'Postgres']]);
  memory('m2', 'Ledger uses integer cents');
  graph('m2', [['ledger service', 'service'], ['postgres', 'service']], [['ledger service', 'depends_on', 'Postgres']]);
  memory('p1', 'Maybe Redis caches sessions', 'provisional');
  graph('p1', [['Redis', 'service']]);
  memory('g1', 'Prefer pnpm', 'active', true);
  graph('g1', [['pnpm', 'tool']]);
  return h;
}

describe('engram graph ENTITY', () => {
  it('shows an entity, its relations both ways and the memories that name it, found by name, plural, path or base name', async () => {
    const h = seeded();
    await drain(h.env);
    expect(existsSync(join(h.paths.views, 'graph', `${projectSlug(project)}.json`))).toBe(true);
    const dir = join(h.paths.claude, projectMemoryDir(project));

    const json = await cliHere(['graph', 'POSTGRES', '--project', project, '--json'], h.env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        name: 'Postgres', type: 'service', aliases: ['postgres'], hub: false, project,
        out: [],
        in: [{ rel: 'depends_on', entity: 'ledger service' }, { rel: 'configures', entity: 'src/db/pool.ts' }],
        memories: [{ name: 'Pool size is 20', file: join(dir, 'pool-size-is-20.md') }, { name: 'Ledger uses integer cents', file: join(dir, 'ledger-uses-integer-cents.md') }],
      },
    ]);
    for (const memory of JSON.parse(json.stdout)[0].memories) expect(existsSync(memory.file)).toBe(true);

    const text = await cliHere(['graph', 'ledger', 'services', '--project', project], h.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(
      [`ledger service (service) — ${project}`, '  ledger service depends_on Postgres', '  named in 1 memory:', `    ${join(dir, 'ledger-uses-integer-cents.md')}  Ledger uses integer cents`, ''].join('\n'),
    );
    for (const name of ['pool.ts', 'src/db/pool.ts', './src/db/pool.ts']) {
      const byPath = await cliHere(['graph', name, '--project', project, '--json'], h.env);
      expect(byPath.code, `${name}: ${byPath.stderr}`).toBe(0);
      expect(JSON.parse(byPath.stdout)).toMatchObject([{ name: 'src/db/pool.ts', type: 'file', aliases: ['pool.ts'], out: [{ rel: 'configures', entity: 'Postgres' }] }]);
    }
    // The global memories' graph answers in any project.
    const global = await cliHere(['graph', 'pnpm', '--project', '/home/dev/elsewhere', '--json'], h.env);
    expect(JSON.parse(global.stdout)).toMatchObject([{ name: 'pnpm', project: '', memories: [{ name: 'Prefer pnpm' }] }]);

    // A provisional memory's entity is not in the graph, and an unknown name is a clear error.
    const redis = await cliHere(['graph', 'redis', '--project', project], h.env);
    expect(redis.code).toBe(1);
    expect(redis.stderr).toContain('no memory in force names "redis"');
    expect((await cliHere(['graph', '--project', project], h.env)).code).toBe(2);
  });

  it('imports the graph sidecars of an imported memory directory, refusing a malformed one with a reason', async () => {
    const h = tempHome({ ENGRAM_NOW: '2026-11-01T10:00:00.000Z' });
    homes.push(h);
    const source = join(h.root, 'old-memories');
    mkdirSync(join(source, '_graph'), { recursive: true });
    writeFileSync(join(source, 'db.md'), '---\nname: Database\ndescription: the orders database\ntype: project\n---\nOrders live in Postgres 16.\n');
    writeFileSync(join(source, '_graph', 'db.md.json'), JSON.stringify({ memoryId: 'elsewhere-1', file: 'db.md', entities: [{ name: 'Postgres', type: 'service' }, { name: 'orders', type: 'concept' }], relations: [{ src: 'orders', rel: 'part_of', dst: 'Postgres' }] }));
    writeFileSync(join(source, 'cache.md'), '---\nname: Cache\ndescription: the cache\ntype: project\n---\nRedis holds sessions.\n');
    writeFileSync(join(source, '_graph', 'cache.md.json'), JSON.stringify({ entities: [{ name: 'Redis', type: 'planet' }] }));
    const target = '/home/dev/src/orders';
    const first = await cliHere(['import', source, '--project', target], h.env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('imported: Database ← db.md (with its graph)\n');
    expect(first.stdout).toMatch(/_graph\/cache\.md\.json: not a graph sidecar \(entities\.0\.type: .*\); Cache is imported without its graph/);
    await drain(h.env);
    const shown = await cliHere(['graph', 'postgres', '--project', target, '--json'], h.env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject([{ name: 'Postgres', in: [{ rel: 'part_of', entity: 'orders' }], memories: [{ name: 'Database', file: join(h.paths.claude, projectMemoryDir(target), 'db.md') }] }]);
    expect((await cliHere(['graph', 'redis', '--project', target], h.env)).code).toBe(1);
    const again = await cliHere(['import', source, '--project', target], h.env);
    expect(again.stdout).toContain('0 imported, 2 already there');
  });
});
