import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { isEngramError } from '../src/errors.js';
import { LevelEventLog } from '../src/log/level-event-log.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function event(id: string, extra: Partial<Envelope> = {}): Envelope {
  return {
    id: `evt-${id}-000000`,
    type: 'PromptSubmitted',
    schemaVersion: 2,
    ts: '2026-11-01T10:00:00.000Z',
    session: 's1',
    project: '/p',
    data: { prompt: `prompt ${id}`, chars: 8, truncated: false },
    ...extra,
  };
}

async function readAll(log: LevelEventLog, options = {}) {
  const out = [];
  for await (const batch of log.read(options)) out.push(...batch);
  return out;
}

describe('LevelEventLog', () => {
  it('numbers events from 1 without gaps and reads them back in order', async () => {
    const log = await LevelEventLog.open(join(tempDir(), 'log'));
    await log.append([event('a'), event('b')]);
    await log.append([event('c')]);
    const all = await readAll(log, { batchSize: 2 });
    expect(all.map((e) => [e.seq, e.id])).toEqual([
      [1, 'evt-a-000000'],
      [2, 'evt-b-000000'],
      [3, 'evt-c-000000'],
    ]);
    expect(all[0]).toEqual({ ...event('a'), seq: 1 });
    expect(log.head).toBe(3);
    await log.close();
  });

  it('stores an id once, across calls and within one call', async () => {
    const log = await LevelEventLog.open(join(tempDir(), 'log'));
    await log.append([event('a')]);
    const result = await log.append([event('a'), event('b'), event('b')]);
    expect(result.appended.map((e) => e.id)).toEqual(['evt-b-000000']);
    expect(result.duplicates).toEqual(['evt-a-000000', 'evt-b-000000']);
    expect((await readAll(log)).length).toBe(2);
    await log.close();
  });

  it('dedupes engram-minted ids, whose time prefix lets new ones skip the lookup, across reopen', async () => {
    const dir = join(tempDir(), 'log');
    const minted = (micros: number, tail: string) => event(tail, { id: `${micros.toString(36).padStart(11, '0')}-1-${tail}` });
    const log = await LevelEventLog.open(dir);
    await log.append([minted(2_000, 'b'), minted(3_000, 'c')]);
    await log.close();
    const again = await LevelEventLog.open(dir);
    // Same ids again, an older-minted new one, a newer one, and a duplicate inside the call.
    const result = await again.append([minted(3_000, 'c'), minted(1_000, 'a'), minted(2_000, 'b'), minted(4_000, 'd'), minted(4_000, 'd')]);
    expect(result.appended.map((e) => e.id.split('-')[2])).toEqual(['a', 'd']);
    expect(result.duplicates.length).toBe(3);
    expect(again.head).toBe(4);
    await again.close();
  });

  it('keeps its head across reopen, and seq ranges read exactly', async () => {
    const dir = join(tempDir(), 'log');
    const log = await LevelEventLog.open(dir);
    await log.append(Array.from({ length: 25 }, (_, i) => event(String(i))));
    await log.close();
    const again = await LevelEventLog.open(dir);
    expect(again.head).toBe(25);
    expect((await readAll(again, { from: 10, to: 12 })).map((e) => e.seq)).toEqual([10, 11, 12]);
    expect(await again.has(['evt-3-000000', 'nope-000000'])).toEqual([true, false]);
    await again.close();
  });

  it('is held by one process at a time: a second open fails with LOG_LOCKED', async () => {
    const dir = join(tempDir(), 'log');
    const log = await LevelEventLog.open(dir);
    const second = await LevelEventLog.open(dir).catch((err) => err);
    expect(isEngramError(second, 'LOG_LOCKED')).toBe(true);
    await log.close();
  });

  it('refuses an event without a valid envelope and writes nothing of that call', async () => {
    const log = await LevelEventLog.open(join(tempDir(), 'log'));
    const bad = { ...event('x'), ts: 'yesterday' };
    const error = await log.append([event('ok'), bad]).catch((err) => err);
    expect(isEngramError(error, 'EVENT_INVALID')).toBe(true);
    expect(log.head).toBe(0);
    await log.close();
  });

  it('keeps small named values beside the log', async () => {
    const log = await LevelEventLog.open(join(tempDir(), 'log'));
    expect(await log.getMeta('migrations')).toBeUndefined();
    await log.setMeta('migrations', '["0002"]');
    expect(await log.getMeta('migrations')).toBe('["0002"]');
    await log.close();
  });
});
