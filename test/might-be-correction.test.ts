import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORRECTION_STEMS, holdsStem } from '../src/capture/might-be-correction.js';

// holdsStem is the one-pass form of "some stem is a substring": the prompt hook and the memories
// projector both ask it, so it must answer exactly as `includes` would, for any text.
describe('holdsStem', () => {
  const naive = (lower: string) => CORRECTION_STEMS.some((stem) => lower.includes(stem));

  it('every stem is at least two characters (the index is by the first two)', () => {
    expect(CORRECTION_STEMS.every((stem) => stem.length >= 2)).toBe(true);
  });

  it('answers as includes does, on text made of pieces of the stems and around them', () => {
    const pieces = [...CORRECTION_STEMS.flatMap((stem) => [stem, stem.slice(1), stem.slice(0, -1), stem.slice(0, 2)]), ' ', 'x', "'", 'é', '-'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(holdsStem(text)).toBe(naive(text));
      }),
      { numRuns: 5000, seed: 20261202 },
    );
  });

  it('answers as includes does on any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(holdsStem(text)).toBe(naive(text));
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});
