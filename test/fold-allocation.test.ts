import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyCache, keyPairCache } from '../src/projections/key-cache.js';
import { liveSessionsProjector, liveSessionKey, type LiveSession } from '../src/projections/live-sessions.js';
import type { DomainEvent } from '../src/events/catalog.js';

// The rebuild's allocation cuts (issue 22, item 4) must not change a row: a cached key is the
// key `prefix + id` would make.
describe('what folding shares between events', () => {
  it('a cached key is prefix + id, for any id, however many ids came before', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 200 }), (prefix, ids) => {
        const key = keyCache(prefix);
        for (const id of [...ids, ...ids]) expect(key(id)).toBe(prefix + id);
      }),
    );
  });

  it('a cached pair key is prefix + a + separator + b, for any pair, however many came before', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 200 }), (prefix, pairs) => {
        const key = keyPairCache(prefix, '\n');
        for (const [a, b] of [...pairs, ...pairs]) expect(key(a, b)).toBe(`${prefix}${a}\n${b}`);
      }),
    );
  });

  it('a cache that starts over past its bound still makes the same keys', () => {
    const key = keyCache('s:');
    for (let i = 0; i < 100_050; i++) key(`id${i}`);
    expect(key('id3')).toBe('s:id3');
    expect(key('id100049')).toBe('s:id100049');
  });

  it('a session\'s first live event is the earliest by time, timestamps compared as strings or parsed alike', () => {
    const time = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) });
    // The envelope's form, another offset and a form Date.parse cannot read.
    const form = fc.constantFrom('iso', 'offset', 'garbage');
    const write = (ms: number, how: string) =>
      how === 'iso' ? new Date(ms).toISOString() : how === 'offset' ? new Date(ms + 3_600_000).toISOString().replace('Z', '+01:00') : `t${ms}`;
    fc.assert(
      fc.property(time, form, time, form, (a, howA, b, howB) => {
        const firstAt = write(a, howA);
        const ts = write(b, howB);
        const state = { get: (key: string): LiveSession | undefined => (key === liveSessionKey('s1') ? { firstAt } : undefined) };
        const event = { type: 'PromptSubmitted', id: 'e1', session: 's1', ts } as unknown as DomainEvent;
        const changes = liveSessionsProjector().evolve(state, event);
        const parsedBefore = !(Date.parse(firstAt) <= Date.parse(ts));
        expect(changes.length === 1).toBe(parsedBefore);
      }),
    );
  });
});
