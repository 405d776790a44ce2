import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEval } from '../scripts/eval-recall.js';
import { graphRanker } from '../scripts/graph-eval-signal.js';
import { loadEvalSet } from '../scripts/recall-eval-set.js';
import { renderMemoryFile } from '../src/memories/memory-file.js';
import { projectSlug } from '../src/paths.js';
import type { EvalQuery } from '../src/recall/recall-eval.js';

const root = mkdtempSync(join(tmpdir(), 'engram-graph-eval-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const project = '/home/dev/src/ledger';
const query = (id: string, relevant: string[], text: string): EvalQuery => ({ id, text, project, relevant, kind: relevant.length ? 'entity' : 'none' });

describe('the graph signal in the evaluation', () => {
  it('ranks the set\'s memories by their sidecars, never a provisional one, and gets a line of its own', async () => {
    const dir = join(root, 'memories', projectSlug(project));
    mkdirSync(join(dir, '_graph'), { recursive: true });
    mkdirSync(join(root, 'memories', 'global'), { recursive: true });
    const memory = (file: string, id: string, name: string, entities: string[], relations: string[][] = [], status: 'active' | 'provisional' = 'active') => {
      writeFileSync(
        join(dir, file),
        renderMemoryFile({ name, description: name, type: 'project', confidence: 0.9, last_reinforced: '2026-11-20T00:00:00.000Z', status, extra: { top: [], metadata: [{ key: 'memory_id', value: id }] }, body: `${name}.\n` }),
      );
      writeFileSync(
        join(dir, '_graph', `${file}.json`),
        JSON.stringify({ memoryId: id, file, entities: entities.map((name) => ({ name, type: 'service' })), relations: relations.map(([src, dst]) => ({ src, rel: 'depends_on', dst })) }),
      );
    };
    memory('ledger.md', 'm1', 'Ledger keeps integer cents', ['ledger service', 'Postgres'], [['ledger service', 'Postgres']]);
    memory('vacuum.md', 'm2', 'Vacuum after bulk imports', ['Postgres']);
    memory('guess.md', 'm3', 'Maybe the ledger caches in Redis', ['ledger service', 'Redis'], [], 'provisional');
    const queries = [query('q1', ['m1'], 'why does the ledger service round twice?'), query('q2', [], 'what is the ingress timeout')];
    writeFileSync(join(root, 'queries-dev.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n'));
    writeFileSync(join(root, 'queries-test.jsonl'), JSON.stringify(queries[0]));

    const ranker = graphRanker(root, loadEvalSet(root));
    // The memory naming the ledger service first, its neighbour Postgres's other memory after; the provisional one never.
    expect(await ranker.rank(queries[0]!)).toEqual([{ id: 'm1', score: 1 }, { id: 'm2', score: 0.5 }]);
    expect(await ranker.rank(queries[1]!)).toEqual([]);
    const report = (await runEval(root, (set) => [graphRanker(root, set)])).lines.join('\n');
    expect(report).toMatch(/test: .*\n\s+bm25 alone[^\n]*\n\s+graph alone\s+100\.0\s+100\.0\s+1\.000/);
    expect(report).not.toMatch(/graph alone\s+\(no ranker yet/);
  });
});
