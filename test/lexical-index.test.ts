import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../src/errors.js';
import { buildBm25, DEFAULT_BM25, rankPostings, requiredShared, type LexicalDoc } from '../src/indexes/bm25.js';
import { LexicalIndexFile, serializeLexicalIndex } from '../src/indexes/lexical-index.js';
import { queryWords } from '../src/indexes/query-words.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-lexical-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const doc = (id: string, name: string, more: Partial<LexicalDoc> = {}): LexicalDoc => ({
  id, file: `${id}.md`, name, description: '', body: '', entities: [], confidence: 0.8, lastReinforced: '2026-11-01T00:00:00.000Z', halfLifeDays: 90, ...more,
});
const nameOnly = { k1: 1.2, b: 0.75, fieldWeights: { name: 1, description: 0, entities: 0, body: 0 } };
const where = { dir: 'projects/-home-dev-app/memory', project: '/home/dev/app', asOf: '2026-11-02T00:00:00.000Z' };
const open = (docs: LexicalDoc[], params = nameOnly) => LexicalIndexFile.fromBytes(Buffer.from(serializeLexicalIndex(buildBm25(docs, params), where)));

describe('the BM25 index file', () => {
  const docs = [doc('a', 'postgres vacuum'), doc('b', 'postgres replication lag'), doc('c', 'redis eviction')];

  it('scores as BM25 computed by hand (k1 1.2, b 0.75, Lucene IDF), and asks a two-word prompt to share both words', () => {
    // N = 3, avgdl = 7/3. a: norm = 1.2 × (0.25 + 0.75 × 2 / (7/3)) = 1.0714;
    // postgres: ln(1 + 1.5/2.5) × 2.2 / 2.0714 = 0.499; vacuum: ln(1 + 2.5/1.5) × 2.2 / 2.0714 = 1.042.
    const index = open(docs);
    expect(index.search(queryWords('postgres vacuum'), { minShared: 2 })).toEqual([
      { id: 'a', file: 'a.md', name: 'postgres vacuum', description: '', score: 1.541, shared: 2, confidence: 0.8, lastReinforced: '2026-11-01T00:00:00.000Z', halfLifeDays: 90 },
    ]);
    // The ranking takes one shared word (the default); the gate asks for more; b: norm 1.4571, 0.470 × 2.2 / 2.4571 = 0.421.
    const loose = index.search(queryWords('postgres vacuum'), { minShared: 1 });
    expect(loose.map((m) => [m.id, m.score])).toEqual([['a', 1.541], ['b', 0.421]]);
  });

  it('requires 3 shared words (2 in the seed), 15 % of a long prompt\'s words, never more than 4 nor than the prompt has', () => {
    expect([1, 2, 3, 4, 20, 27, 100].map((n) => requiredShared(n))).toEqual([1, 2, 3, 3, 3, 4, 4]);
    expect([2, 3, 13, 14, 20, 27].map((n) => requiredShared(n, { minShared: 2, shareOfWords: 0.15, maxShared: 4 }))).toEqual([2, 2, 2, 3, 3, 4]);
    expect([2, 3, 4].map((n) => requiredShared(n, { minShared: 3, shareOfWords: 0.15, maxShared: 4 }))).toEqual([2, 3, 3]);
  });

  it('finds every word of a larger index by binary search, and ranks as the index in memory does', () => {
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'überall', 'naïve', '数据库'];
    const many = Array.from({ length: 300 }, (_, i) =>
      doc(`m${String(i).padStart(3, '0')}`, `${vocabulary[i % 15]} ${vocabulary[(i * 7) % 15]}`, {
        description: `${vocabulary[(i * 3) % 15]} fetchUserData${i % 5}`,
        body: `${vocabulary[(i * 11) % 15]} body text ${i}`,
        halfLifeDays: i % 10 === 0 ? null : 30,
      }),
    );
    const memory = buildBm25(many);
    const file = LexicalIndexFile.fromBytes(Buffer.from(serializeLexicalIndex(memory, where)));
    for (const [term, postings] of memory.terms) expect(file.postings(term).map(([, score]) => score), term).toEqual(postings.map(([, score]) => score));
    expect(file.postings('aaaa')).toEqual([]);
    expect(file.postings('zzzz')).toEqual([]);
    for (const prompt of ['alpha beta gamma', 'fetchUserData3 naïve überall', 'body text 17 kappa', 'lambda mu theta iota', '数据库 body text']) {
      const words = queryWords(prompt);
      const rule = { minShared: 2, shareOfWords: 0.15, maxShared: 4 };
      const expected = rankPostings(words, (w) => memory.terms.find(([t]) => t === w)?.[1] ?? [], requiredShared(words.length, rule)).map((h) => [memory.docs[h.doc]!.id, h.score / 1000]);
      expect(file.search(words, { minShared: requiredShared(words.length, rule) }).map((m) => [m.id, m.score]), prompt).toEqual(expected);
      expect(expected.length, prompt).toBeGreaterThan(0);
    }
    const top = file.search(queryWords('body text 10'), { limit: 1 })[0];
    expect(top).toMatchObject({ id: 'm010', halfLifeDays: null, shared: 3 });
    expect(file.header).toMatchObject({ ...where, docCount: 300 });
    // On disk, read piece by piece as the hook reads it: the same answers.
    const path = join(dir, 'index.bm25');
    writeFileSync(path, serializeLexicalIndex(memory, where));
    const onDisk = LexicalIndexFile.open(path);
    try {
      for (const [term] of memory.terms) expect(onDisk.postings(term), term).toEqual(file.postings(term));
      for (const prompt of ['alpha beta gamma', 'body text 10', 'fetchUserData3 naïve']) expect(onDisk.search(queryWords(prompt))).toEqual(file.search(queryWords(prompt)));
      expect(onDisk.postings('x'.repeat(200))).toEqual([]);
    } finally {
      onDisk.close();
    }
  });

  it('indexes name, description, entities and body, weighted, identifiers split and whole', () => {
    const index = open([
      doc('n', 'Billing retries', { body: 'see the runbook' }),
      doc('e', 'Nightly job', { entities: ['billing-service', 'retry queue'] }),
      doc('b', 'Unrelated', { body: 'billing retries happen in the worker' }),
    ], DEFAULT_BM25);
    expect(index.search(queryWords('billing retry')).map((m) => m.id)).toEqual(['n', 'e', 'b']);
    expect(index.search(queryWords('billing-service outage')).map((m) => m.id)).toEqual(['e', 'n', 'b']);
    expect(index.search(queryWords('billing-service outage'), { minShared: 2 }).map((m) => m.id)).toEqual(['e']);
  });

  it('is the same bytes for the same memories in any order, and empty when there are none', () => {
    const shuffled = [docs[2]!, docs[0]!, docs[1]!];
    expect(serializeLexicalIndex(buildBm25(shuffled), where)).toBe(serializeLexicalIndex(buildBm25(docs), where));
    expect(open([]).search(queryWords('postgres vacuum'))).toEqual([]);
  });

  it('refuses a file that is not an index, with RECALL_INDEX_INVALID', () => {
    for (const bytes of ['', 'hello', '{"format":"other"}\n', `${JSON.stringify({ format: 'engram-lexical-index', formatVersion: 99 })}\n`]) {
      let error: unknown;
      try {
        LexicalIndexFile.fromBytes(Buffer.from(bytes));
      } catch (err) {
        error = err;
      }
      expect(isEngramError(error, 'RECALL_INDEX_INVALID'), bytes).toBe(true);
    }
    const good = serializeLexicalIndex(buildBm25(docs), where);
    expect(() => LexicalIndexFile.fromBytes(Buffer.from(good.slice(0, good.indexOf('\n') + 10)))).toThrow(/shorter than its header/);
  });

  it('bundles for a hook with Node built-ins and the stemmer alone: no zod, no YAML, no LevelDB', async () => {
    const entry = join(dir, 'hook-entry.ts');
    writeFileSync(entry, `import { LexicalIndexFile } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'indexes', 'lexical-index.ts'))};\nimport { queryWords } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'indexes', 'query-words.ts'))};\nconsole.log(LexicalIndexFile.open(process.argv[2]).search(queryWords(process.argv[3])).length);\n`);
    const result = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => path.includes('node_modules') && !path.includes('node_modules/stemmer/'))).toEqual([]);
    const loaded = [...result.outputFiles[0]!.text.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(loaded.length).toBeGreaterThan(0);
    for (const name of loaded) expect(name).toMatch(/^node:/);
  });
});
