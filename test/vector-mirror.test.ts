import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../bench/seeded-random.js';
import { VectorStore, type VectorRow } from '../src/indexes/vector-store.js';
import { VectorMirror } from '../src/indexes/vector-mirror.js';
import { FloatRows } from '../src/indexes/float-rows.js';

// nearest() searches an in-memory mirror of the table (vector-mirror.ts); LanceDB's own vector
// query is the reference it must agree with, through its own writes and another handle's.
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const DIMENSIONS = 32;
const random = seededRandom(11);

function unit(): Float32Array {
  const vector = new Float32Array(DIMENSIONS).map(() => random() - 0.5);
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}
const row = (id: string, project: string, vector = unit()): VectorRow => ({ id, project, file: `${id}.md`, name: id, textHash: id, vector });
const PROJECTS = ['/a', '/b', '/c', ''];

async function agree(mirrored: VectorStore, lance: VectorStore, queries = 15): Promise<void> {
  for (let i = 0; i < queries; i++) {
    const query = unit();
    const project = PROJECTS[i % 3]!;
    const [mine, theirs] = await Promise.all([mirrored.nearest(query, { project, limit: 10 }), lance.nearest(query, { project, limit: 10 })]);
    expect(mine.map((hit) => hit.id)).toEqual(theirs.map((hit) => hit.id));
    mine.forEach((hit, j) => expect(hit.cosine).toBeCloseTo(theirs[j]!.cosine, 4));
  }
}

/**
 * A packed mirror's cosines are LanceDB's to within a step of its bytes, so in a near tie two
 * memories may swap (32 floats a row here; USE Lite's 512 pack ten times closer): the cosine at
 * each rank agrees within 0.005, and all but a tie or two of the memories are the same.
 */
async function agreePacked(packed: VectorStore, lance: VectorStore, queries = 15): Promise<void> {
  for (let i = 0; i < queries; i++) {
    const query = unit();
    const project = PROJECTS[i % 3]!;
    const [mine, theirs] = await Promise.all([packed.nearest(query, { project, limit: 10 }), lance.nearest(query, { project, limit: 10 })]);
    expect(mine).toHaveLength(theirs.length);
    mine.forEach((hit, j) => expect(Math.abs(hit.cosine - theirs[j]!.cosine)).toBeLessThan(0.005));
    const same = mine.filter((hit) => theirs.some((other) => other.id === hit.id)).length;
    expect(same).toBeGreaterThanOrEqual(theirs.length - 2);
  }
}

/** Three handles on one new table: one mirrored, one that always asks LanceDB, and another writer. */
function threeHandles(): { mirrored: VectorStore; lance: VectorStore; other: VectorStore } {
  const dir = mkdtempSync(join(tmpdir(), 'engram-mirror-'));
  dirs.push(dir);
  const options = { dir, model: 'test-model', dimensions: DIMENSIONS };
  return { mirrored: new VectorStore(options), lance: new VectorStore({ ...options, mirrorMaxRows: 0, packedMaxRows: 0 }), other: new VectorStore(options) };
}

describe('VectorStore.nearest from its in-memory mirror', () => {
  it('ranks as LanceDB does, through its own upserts, removals and compaction, and another handle’s writes', async () => {
    const { mirrored, lance, other } = threeHandles();
    try {
      expect(await mirrored.nearest(unit(), { project: '/a', limit: 10 })).toEqual([]);
      await mirrored.upsert(Array.from({ length: 300 }, (_, i) => row(`m${i}`, PROJECTS[i % 4]!)));
      await agree(mirrored, lance);
      // Its own writes: new vectors for some, a few removed, a compaction.
      await mirrored.upsert(Array.from({ length: 40 }, (_, i) => row(`m${i * 7}`, PROJECTS[(i + 1) % 4]!)));
      await mirrored.remove(['m1', 'm2', 'm3', 'm299', 'absent']);
      await mirrored.optimize();
      await agree(mirrored, lance);
      // Another handle writes a row right on the query: the mirror sees the table moved.
      const query = unit();
      await other.upsert([row('from-another-handle', '/a', query)]);
      expect((await mirrored.nearest(query, { project: '/a', limit: 3 }))[0]).toMatchObject({ id: 'from-another-handle' });
      await other.remove(['from-another-handle']);
      expect((await mirrored.nearest(query, { project: '/a', limit: 3 })).map((hit) => hit.id)).not.toContain('from-another-handle');
      await agree(mirrored, lance);
      // Dropped and filled again (a rebuild).
      await mirrored.drop();
      expect(await mirrored.nearest(query, { project: '/a', limit: 3 })).toEqual([]);
      await mirrored.upsert([row('after-drop', '', query)]);
      expect(await mirrored.nearest(query, { project: '/b', limit: 3 })).toMatchObject([{ id: 'after-drop' }]);
    } finally {
      await Promise.all([mirrored.close(), lance.close(), other.close()]);
    }
  });

  it('reads the table once for the searches that ask while it is being read, and keeps no read of a table dropped meanwhile', async () => {
    const { mirrored, lance, other } = threeHandles();
    try {
      await other.upsert(Array.from({ length: 400 }, (_, i) => row(`m${i}`, PROJECTS[i % 4]!)));
      const queries = Array.from({ length: 6 }, () => unit());
      // prepare() (the recall's, beside the query's embedding) and six searches, all at once.
      const [, ...answers] = await Promise.all([mirrored.prepare(), ...queries.map((query) => mirrored.nearest(query, { project: '/a', limit: 5 }))]);
      expect(mirrored.mirrorReads).toBe(1);
      for (const [i, query] of queries.entries()) expect(answers[i]!.map((hit) => hit.id)).toEqual((await lance.nearest(query, { project: '/a', limit: 5 })).map((hit) => hit.id));
      // Another handle writes: read again, once.
      await other.upsert([row('new', '/a', queries[0])]);
      await Promise.all(queries.map((query) => mirrored.nearest(query, { project: '/a', limit: 5 })));
      expect(mirrored.mirrorReads).toBe(2);
      expect((await mirrored.nearest(queries[0]!, { project: '/a', limit: 1 }))[0]!.id).toBe('new');
      // Dropped while a read is under way: that read is not kept; the new table's rows are searched.
      await other.upsert([row('moved', '/a')]);
      const reading = mirrored.prepare();
      await mirrored.drop();
      await reading;
      await mirrored.upsert([row('after-drop', '/a', queries[1])]);
      expect((await mirrored.nearest(queries[1]!, { project: '/a', limit: 5 })).map((hit) => hit.id)).toEqual(['after-drop']);
    } finally {
      await Promise.all([mirrored.close(), lance.close(), other.close()]);
    }
  });

  it('searches through a searcher the table as it was when the searcher was made (checked beside the embedding, not after it)', async () => {
    const { mirrored, lance, other } = threeHandles();
    try {
      expect(await (await mirrored.searcher())(unit(), { project: '/a', limit: 3 })).toEqual([]);
      await other.upsert(Array.from({ length: 120 }, (_, i) => row(`m${i}`, PROJECTS[i % 4]!)));
      const query = unit();
      const made = await mirrored.searcher();
      await other.upsert([row('written-after', '/a', query)]);
      const later = await mirrored.searcher();
      expect((await made(query, { project: '/a', limit: 5 })).map((hit) => hit.id)).not.toContain('written-after');
      const found = await later(query, { project: '/a', limit: 5 });
      expect(found[0]!.id).toBe('written-after');
      expect(found.map((hit) => hit.id)).toEqual((await lance.nearest(query, { project: '/a', limit: 5 })).map((hit) => hit.id));
      expect(await later(query, { project: '/a', limit: 0 })).toEqual([]);
    } finally {
      await Promise.all([mirrored.close(), lance.close(), other.close()]);
    }
  });

  it('leaves a table larger than both its caps to LanceDB, with the same answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-mirror-'));
    dirs.push(dir);
    const small = new VectorStore({ dir, model: 'test-model', dimensions: DIMENSIONS, mirrorMaxRows: 50, packedMaxRows: 100 });
    const lance = new VectorStore({ dir, model: 'test-model', dimensions: DIMENSIONS, mirrorMaxRows: 0, packedMaxRows: 0 });
    try {
      await small.upsert(Array.from({ length: 120 }, (_, i) => row(`m${i}`, PROJECTS[i % 4]!)));
      await agree(small, lance, 5);
    } finally {
      await Promise.all([small.close(), lance.close()]);
    }
  });

  it('holds a table past mirrorMaxRows packed as bytes: cosines within 0.005 of LanceDB’s, through its own writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-mirror-'));
    dirs.push(dir);
    const packed = new VectorStore({ dir, model: 'test-model', dimensions: DIMENSIONS, mirrorMaxRows: 50, packedMaxRows: 1000 });
    const lance = new VectorStore({ dir, model: 'test-model', dimensions: DIMENSIONS, mirrorMaxRows: 0, packedMaxRows: 0 });
    try {
      await packed.upsert(Array.from({ length: 200 }, (_, i) => row(`m${i}`, PROJECTS[i % 4]!)));
      await agreePacked(packed, lance);
      await packed.upsert(Array.from({ length: 30 }, (_, i) => row(`m${i * 5}`, PROJECTS[(i + 1) % 4]!)));
      await packed.remove(['m4', 'm8', 'm199']);
      await agreePacked(packed, lance);
      // A row right on the query is found first, at a cosine of about 1.
      const query = unit();
      await packed.upsert([row('on-the-query', '/b', query)]);
      const [first] = await packed.nearest(query, { project: '/b', limit: 3 });
      expect(first!.id).toBe('on-the-query');
      expect(first!.cosine).toBeCloseTo(1, 2);
    } finally {
      await Promise.all([packed.close(), lance.close()]);
    }
  });

  it('scans rows of 512 floats with SIMD and returns the exact doubles’ ranking and cosines, bit for bit, near ties included', () => {
    const d = 512;
    expect(FloatRows.fits(d)).toBe(true);
    const wide = (): Float32Array => {
      const vector = new Float32Array(d).map(() => random() - 0.5);
      const norm = Math.hypot(...vector);
      return vector.map((x) => x / norm);
    };
    // The reference: the dot product summed in doubles four lanes at a time, as the mirror's loop sums it; ties by id.
    const exact = (q: Float32Array, v: Float32Array) => {
      const s = [0, 0, 0, 0];
      for (let k = 0; k < d; k++) s[k % 4]! += q[k]! * v[k]!;
      return s[0]! + s[1]! + (s[2]! + s[3]!);
    };
    const queries = Array.from({ length: 12 }, wide);
    const rows: Array<{ id: string; project: string; vector: Float32Array }> = Array.from({ length: 1500 }, (_, i) => ({ id: `m${i}`, project: PROJECTS[i % 4]!, vector: wide() }));
    // Near each query, sixty rows a few millionths apart (a 32-bit scan orders them otherwise than doubles do: without
    // the exact rescoring near the cut this test fails), and exact duplicates (ties by id).
    for (const [qi, q] of queries.entries()) {
      const base = q.map((x) => x + (random() - 0.5) * 0.01);
      for (let j = 0; j < 60; j++) {
        const near = base.map((x) => x * (1 + (random() - 0.5) * 4e-6));
        rows.push({ id: `near-${qi}-${j}`, project: PROJECTS[j % 4]!, vector: near });
      }
      rows.push({ id: `dup-${qi}-b`, project: '', vector: q }, { id: `dup-${qi}-a`, project: '/a', vector: q });
    }
    const mirror = new VectorMirror(1, rows);
    mirror.remove(['m3', 'm700', 'near-0-2']);
    const kept = rows.filter((row) => !['m3', 'm700', 'near-0-2'].includes(row.id));
    for (const [i, q] of queries.entries()) {
      const project = PROJECTS[i % 3]!;
      for (const limit of [1, 10, 25]) {
        const expected = kept
          .filter((row) => row.project === project || row.project === '')
          .map((row) => ({ id: row.id, cosine: exact(q, row.vector) }))
          .sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : 1))
          .slice(0, limit);
        expect(mirror.nearest(q, { project, limit })).toEqual(expected);
      }
    }
  });
});
