import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { WindowReader } from '../src/engine/window-reader.js';

const root = mkdtempSync(join(tmpdir(), 'engram-windows-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('WindowReader', () => {
  it('hands a lane its window even when reading ahead pushed it out of the kept ones', async () => {
    const log = await LevelEventLog.open(join(root, 'log'));
    try {
      const events = syntheticEvents({ sessions: 50, eventsPerSession: 100, seed: 3 });
      await log.append(events);
      // One window kept: the read-ahead of 2001..4000 evicts 1..2000 while its load is awaited.
      const windows = new WindowReader(log, defaultCatalog(), { keep: 1 });
      const first = await windows.read(1, log.head, 2000);
      expect(first.map((slot) => slot.raw.seq)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
      expect(first.map((slot) => slot.raw.id)).toEqual(events.slice(0, 2000).map((event) => event.id));
      const second = await windows.read(2001, log.head, 2000);
      expect(second[0]!.raw.seq).toBe(2001);
      expect(second).toHaveLength(Math.min(2000, log.head - 2000));
    } finally {
      await log.close();
    }
  });

  it('says by number whether a lane handles an event, as its set of type names would', async () => {
    const log = await LevelEventLog.open(join(root, 'log-types'));
    try {
      const events = syntheticEvents({ sessions: 5, eventsPerSession: 60, seed: 4 });
      await log.append(events);
      const catalog = defaultCatalog();
      const windows = new WindowReader(log, catalog);
      const handles = new Set(['ToolCalled', 'SessionEnded']);
      const mask = windows.typeMask(handles);
      const slots = await windows.read(1, log.head, 2000);
      expect(slots).toHaveLength(events.length);
      for (const slot of slots) expect(mask[slot.typeId]).toBe(handles.has(slot.raw.type));
      // A type the catalog does not know has a number of its own, handled by no lane.
      expect(mask[catalog.types.length]).toBe(false);
    } finally {
      await log.close();
    }
  });
});
