import { describe, expect, it } from 'vitest';
import { isoTime } from '../src/events/iso-time.js';

// Hooks stamp events with isoTime instead of Date (src/events/iso-time.ts): it must write exactly
// what toISOString writes, for every instant.
describe('isoTime', () => {
  it('writes what Date#toISOString writes', () => {
    const instants = [
      0, -1, 1, 86_399_999, 86_400_000, 951_782_400_000 /* 2000-02-29 */, 951_868_799_999, 4_107_542_400_000 /* 2100-03-01 */,
      -62_167_219_200_000 /* 0000-01-01 */, 253_402_300_799_999 /* 9999-12-31T23:59:59.999 */, 1_796_206_330_800, Date.now(),
    ];
    // Every day of four centuries around now, at a varying time of day.
    for (let day = -200 * 365; day < 200 * 365; day += 1) instants.push(day * 86_400_000 + ((day * 7_919_993) % 86_400_000 + 86_400_000) % 86_400_000);
    for (const ms of instants) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('leaves to Date the years ISO writes with a sign', () => {
    for (const ms of [-62_167_219_200_001, 253_402_300_800_000, 8.64e15]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
