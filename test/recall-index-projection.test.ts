import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { projectSlug } from '../src/paths.js';
import { LexicalIndexFile } from '../src/indexes/lexical-index.js';
import { queryWords } from '../src/indexes/query-words.js';
import { appendInSlices, projectionHarness, type Harness } from './support/projection-harness.js';

const root = mkdtempSync(join(tmpdir(), 'engram-recall-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, String(++n));
const project = '/home/dev/src/payments';

let seq = 0;
const event = (type: string, data: unknown, at: string, where = project): Envelope => {
  seq++;
  return { id: `evt-rec-${String(seq).padStart(6, '0')}`, type, schemaVersion: 1, ts: at, session: 's1', project: where, data };
};
const proposed = (memoryId: string, name: string, body: string, more: Record<string, unknown> = {}, at = '2026-11-20T10:00:00.000Z'): Envelope =>
  event(
    'MemoryProposed',
    { memoryId, origin: 'user', scope: more.global ? 'global' : 'project', name, description: name, type: 'project', body, status: 'active', confidence: 0.8, ...more, global: undefined },
    at,
    more.global ? '' : project,
  );

const indexOf = (h: Harness, where = project) => {
  const path = join(h.roots.views, 'recall', `${where === '' ? 'global' : projectSlug(where)}.bm25`);
  return existsSync(path) ? LexicalIndexFile.fromBytes(readFileSync(path)) : undefined;
};
// Two shared words, as the gate asks of a two-word prompt: what each memory says, not a word in passing.
const ids = (h: Harness, prompt: string, where = project) => indexOf(h, where)?.search(queryWords(prompt), { minShared: 2 }).map((m) => m.id) ?? [];

const story = (): Envelope[] => [
  proposed('pg', 'Postgres vacuum schedule', 'autovacuum is tuned for the ledger table; run VACUUM ANALYZE after bulk imports\n'),
  proposed('tag', 'Nightly job owner', 'the job that reconciles payouts\n', { extra: { top: [{ key: 'tags', value: ['pgbouncer', 'connection pooling'] }], metadata: [] } }),
  proposed('prov', 'Maybe postgres vacuum is broken', 'a guess\n', { status: 'provisional', confidence: 0.3 }),
  proposed('glob', 'Prefer terse commit messages', 'one line commit messages, imperative mood\n', { global: true, type: 'user' }),
  proposed('old', 'Ledger lives in postgres', 'the ledger table is in postgres 15\n'),
  event('MemoryArchived', { memoryId: 'old', reason: 'decayed' }, '2026-11-21T10:00:00.000Z'),
  event('MemoryEdited', { memoryId: 'pg', by: 'hand', name: 'Postgres vacuum schedule', description: 'Postgres vacuum schedule', type: 'project', body: 'autovacuum tuned; VACUUM ANALYZE after bulk imports of settlements\n' }, '2026-11-22T10:00:00.000Z'),
  event('MemoriesMaintained', { at: '2026-11-23T00:00:00.000Z' }, '2026-11-23T00:00:00.000Z', ''),
];

describe('the recall index projection', () => {
  it('indexes each memory directory\'s active memories, with their tags, and follows what happens to them', async () => {
    const h = await projectionHarness(freshDir());
    await h.log.append(story());
    await (await h.runner()).catchUp();
    expect(ids(h, 'postgres vacuum')).toEqual(['pg']);
    expect(ids(h, 'bulk settlements import')).toEqual(['pg']);
    expect(ids(h, 'pgbouncer connection pooling')).toEqual(['tag']);
    expect(ids(h, 'ledger postgres')).toEqual([]);
    expect(ids(h, 'commit messages', '')).toEqual(['glob']);
    expect(ids(h, 'commit messages')).toEqual([]);
    expect(indexOf(h)!.header).toMatchObject({ project, docCount: 2, asOf: '2026-11-22T10:00:00.000Z' });

    await h.log.append([
      event('MemoryCorroborated', { memoryId: 'prov', by: 'distiller' }, '2026-11-24T10:00:00.000Z'),
      event('MemoryRestored', { memoryId: 'old' }, '2026-11-24T11:00:00.000Z'),
      event('MemoryForgotten', { memoryId: 'tag', reason: 'wrong' }, '2026-11-24T12:00:00.000Z'),
    ]);
    await (await h.runner()).catchUp();
    expect(ids(h, 'postgres vacuum').sort()).toEqual(['pg', 'prov']);
    expect(ids(h, 'ledger postgres')).toEqual(['old']);
    expect(ids(h, 'pgbouncer connection pooling')).toEqual([]);
    await h.close();
  });

  it('indexes the entities a memory\'s graph sidecar names, from the distiller or a later backfill', async () => {
    const h = await projectionHarness(freshDir());
    const answer = {
      episode: { name: 'Fixed the double charge', description: 'a retry charged twice', body: 'Idempotency keys now go with every retry.', graph: { entities: [{ name: 'stripe-webhooks', type: 'service' }, { name: 'Dana', type: 'person' }], relations: [] } },
      candidates: [],
    };
    await h.log.append([event('DistillCompleted', { upToSeq: 10, attempt: 1, via: 'llm', raw: JSON.stringify(answer), answer, notes: [] }, '2026-11-20T10:00:00.000Z')]);
    await (await h.runner()).catchUp();
    expect(ids(h, 'what did Dana say about stripe-webhooks?')).toHaveLength(1);
    expect(ids(h, 'stripe webhooks')).toHaveLength(1);
    // A memory that had no graph gets one later (`engram graph backfill`): its entities are indexed then.
    await h.log.append([
      proposed('plain', 'Nightly settlement job', 'runs at 02:00 UTC\n', {}, '2026-11-21T10:00:00.000Z'),
      event('MemoryGraphed', { memoryId: 'plain', graph: { entities: [{ name: 'settlement-cron', type: 'service' }], relations: [] } }, '2026-11-22T10:00:00.000Z'),
    ]);
    await (await h.runner()).catchUp();
    expect(ids(h, 'settlement-cron failing')).toEqual(['plain']);
    await h.close();
  });

  it('a rebuild, and a fresh worker, write the same bytes as the incremental run', async () => {
    const events = story();
    const h = await projectionHarness(freshDir());
    const runner = await h.runner({ windowSize: 2 });
    await appendInSlices(h, runner, events, [1, 3, 4, 6]);
    const recallFiles = (snapshot: Record<string, string>) => Object.fromEntries(Object.entries(snapshot).filter(([path]) => path.includes('recall/')));
    const incremental = recallFiles(h.snapshot());
    expect(Object.keys(incremental).length).toBe(2);
    await runner.rebuild();
    expect(recallFiles(h.snapshot())).toEqual(incremental);
    const other = await projectionHarness(freshDir());
    await other.log.append(events);
    await (await other.runner()).catchUp();
    expect(recallFiles(other.snapshot())).toEqual(incremental);
    await other.close();
    await h.close();
  });
});
