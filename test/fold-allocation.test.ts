import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyOf } from '../src/projections/copy-of.js';
import { keyCache } from '../src/projections/key-cache.js';

// The rebuild's allocation cuts (issue 22, item 4) must not change a row: a cached key is the
// key `prefix + id` would make, and a copy is an equal map that the original never sees change.
describe('what folding shares between events', () => {
  it('a cached key is prefix + id, for any id, however many ids came before', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 200 }), (prefix, ids) => {
        const key = keyCache(prefix);
        for (const id of [...ids, ...ids]) expect(key(id)).toBe(prefix + id);
      }),
    );
  });

  it('a cache that starts over past its bound still makes the same keys', () => {
    const key = keyCache('s:');
    for (let i = 0; i < 100_050; i++) key(`id${i}`);
    expect(key('id3')).toBe('s:id3');
    expect(key('id100049')).toBe('s:id100049');
  });

  it('a copy holds the same entries in the same order, and changing it leaves the original alone', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.integer())), fc.string(), (entries, extra) => {
        const original = new Map(entries);
        const before = [...original];
        const copy = copyOf(original);
        expect([...copy]).toEqual(before);
        copy.set(extra, -1);
        copy.delete(entries[0]?.[0] ?? '');
        expect([...original]).toEqual(before);
      }),
    );
    expect(copyOf(undefined).size).toBe(0);
  });
});
