import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bm25Ranker, indexFiles, runEval, strengths } from '../scripts/eval-recall.js';
import { loadEvalSet } from '../scripts/recall-eval-set.js';
import { renderMemoryFile } from '../src/memories/memory-file.js';
import { projectSlug } from '../src/paths.js';
import { plainRrf } from '../src/recall/fusion.js';
import { evaluate, pipelineRanker, type EvalQuery, type Ranker } from '../src/recall/recall-eval.js';

const root = mkdtempSync(join(tmpdir(), 'engram-recall-eval-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const project = '/home/dev/src/payments-api';

const query = (id: string, relevant: string[], text = id): EvalQuery => ({ id, text, project, relevant, kind: relevant.length ? 'lexical' : 'none' });

describe('the recall evaluation', () => {
  it('computes hit@1, hit@3, MRR and false recall as by hand', async () => {
    const answers: Record<string, string[]> = { q1: ['a', 'b'], q2: ['a', 'b', 'c'], q3: ['a', 'b', 'c', 'd'], q4: [], n1: ['a'], n2: [] };
    const ranker: Ranker = { name: 'fixed', rank: (q) => answers[q.id]!.map((id, i) => ({ id, score: 10 - i })) };
    const m = await evaluate([query('q1', ['a']), query('q2', ['c', 'x']), query('q3', ['d']), query('q4', ['e']), query('n1', []), query('n2', [])], ranker);
    // Ranks of the first relevant: 1, 3, 4, none. hit@1 1/4, hit@3 2/4, MRR (1 + 1/3 + 1/4 + 0) / 4; one of two no-answer queries recalled something.
    expect(m).toEqual({ answerable: 4, hit1: 0.25, hit3: 0.5, mrr: (1 + 1 / 3 + 1 / 4) / 4, unanswerable: 2, falseRecall: 0.5 });
  });

  it('runs BM25 and the fused pipeline over a slice of memory files, graph sidecars and queries', async () => {
    const dir = join(root, 'memories', projectSlug(project));
    mkdirSync(join(dir, '_graph'), { recursive: true });
    mkdirSync(join(root, 'memories', 'global'), { recursive: true });
    const memory = (where: string, file: string, id: string, name: string, body: string, status: 'active' | 'provisional' = 'active') =>
      writeFileSync(
        join(where, file),
        renderMemoryFile({ name, description: name, type: 'project', confidence: 0.9, last_reinforced: '2026-11-20T00:00:00.000Z', status, extra: { top: [], metadata: [{ key: 'memory_id', value: id }] }, body }),
      );
    memory(dir, 'vacuum.md', 'm1', 'Postgres vacuum schedule', 'Run VACUUM ANALYZE after bulk imports.\n');
    memory(dir, 'redis.md', 'm2', 'Redis eviction policy', 'allkeys-lru with maxmemory 2gb.\n');
    memory(dir, 'guess.md', 'm3', 'Postgres vacuum after bulk imports is broken', 'A guess.\n', 'provisional');
    memory(dir, 'deploy.md', 'm4', 'Deploy the ledger', 'Canary first, then everyone.\n');
    writeFileSync(join(dir, '_graph', 'deploy.md.json'), JSON.stringify({ memoryId: 'm4', file: 'deploy.md', entities: [{ name: 'ledger-service', type: 'service' }], relations: [] }));
    memory(join(root, 'memories', 'global'), 'terse.md', 'g1', 'Terse answers', 'Short answers, no summaries.\n');
    const lines = (queries: EvalQuery[]) => queries.map((q) => JSON.stringify(q)).join('\n');
    const dev = [
      query('d1', ['m1'], 'postgres vacuum analyze after bulk imports'),
      query('d2', ['m2'], 'redis eviction maxmemory'),
      query('d3', ['m4'], 'ledger-service canary'),
      query('d4', [], 'what is the kubernetes ingress timeout'),
      query('d5', ['m2'], 'cache keys dropped under memory pressure'),
      query('d6', ['g1'], 'short terse answers please'),
      query('d7', ['m1'], 'ok'),
    ];
    writeFileSync(join(root, 'queries-dev.jsonl'), lines(dev));
    writeFileSync(join(root, 'queries-test.jsonl'), lines(dev.slice(0, 2)));

    const set = loadEvalSet(root);
    expect([...set.dirs.get(projectSlug(project))!].map((d) => d.id).sort()).toEqual(['m1', 'm2', 'm4']);
    const bm25 = bm25Ranker(indexFiles(set));
    // d1, d2, d3 (by the sidecar's entity) and d6 (global) first; d5 shares no word; d7 has one word; d4 recalls nothing.
    const expected = { answerable: 6, hit1: 4 / 6, hit3: 4 / 6, mrr: 4 / 6, unanswerable: 1, falseRecall: 0 };
    expect(await evaluate(set.dev, bm25)).toEqual(expected);
    const pipeline = pipelineRanker({ name: 'fused', signals: [bm25], fuse: plainRrf, strengthOf: strengths(set) });
    expect(await evaluate(set.dev, pipeline)).toEqual(expected);

    const report = await runEval(root);
    expect(report.lines.join('\n')).toMatch(/dev: .*\n\s+bm25 alone\s+66\.7\s+66\.7\s+0\.667\s+0\.0/);
    expect(report.lines.join('\n')).toMatch(/test: .*\n\s+bm25 alone\s+100\.0\s+100\.0\s+1\.000/);
  });
});
