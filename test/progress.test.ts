import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { humanBytes, progressAmount, progressBar } from '../src/cli/progress-bar.js';
import { fixedClock } from '../src/clock.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { resolvePaths } from '../src/paths.js';
import type { CommandOutput, ProgressUnit } from '../src/commands/command.js';
import { drain } from '../src/commands/projection-commands.js';
import { openEngine } from '../src/composition/open-engine.js';

const root = mkdtempSync(join(tmpdir(), 'engram-progress-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('progress in units a person reads', () => {
  it('counts bytes in KB/MB/GB and events with thousands separators', () => {
    expect(humanBytes(999)).toBe('999 B');
    expect(humanBytes(60_942_360)).toBe('60.9 MB');
    expect(humanBytes(120_000_000)).toBe('120 MB');
    expect(humanBytes(1_500_000_000)).toBe('1.5 GB');
    expect(progressAmount(60_942_360, 120_000_000, 'bytes')).toBe('60.9 MB of 120 MB');
    expect(progressAmount(2279, 2365, 'events')).toBe('2,279 of 2,365 events');
  });

  it('draws a bar only on a terminal, and never the raw byte count', () => {
    let written = '';
    const tty = Object.assign({ write: (text: string) => ((written += text), true) }, { isTTY: true }) as unknown as NodeJS.WritableStream & { isTTY: boolean };
    const bar = progressBar(tty);
    bar.show(60_942_360, 120_000_000, 'bytes');
    expect(written).toContain(' 50 % 60.9 MB of 120 MB');
    expect(written).not.toContain('60942360');
    let piped = '';
    progressBar({ write: (text: string) => ((piped += text), true) } as unknown as NodeJS.WritableStream).show(1, 2);
    expect(piped).toBe('');
  });
});

describe('worker --drain', () => {
  it('reports how far the projections are, in events, ending at the head', async () => {
    const home = join(root, 'drain');
    const env = { ENGRAM_HOME: home, CLAUDE_CONFIG_DIR: join(root, 'claude'), HOME: root };
    const paths = resolvePaths(env);
    const log = await LevelEventLog.open(paths.log);
    await log.append(syntheticEvents({ sessions: 10, eventsPerSession: 30, seed: 3 }));
    await log.close();
    const seen: Array<[number, number, ProgressUnit | undefined]> = [];
    const output: CommandOutput = { out: async () => undefined, err: () => undefined, progress: (done, total, unit) => void seen.push([done, total, unit]) };
    const engine = await openEngine({ paths, clock: fixedClock(new Date('2026-11-01T00:00:00.000Z')) });
    try {
      expect(await drain.run(engine, {}, output)).toBe(0);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.at(-1)).toEqual([engine.log.head, engine.log.head, 'events']);
      for (const [done, total, unit] of seen) {
        expect(unit).toBe('events');
        expect(done).toBeLessThanOrEqual(total);
      }
    } finally {
      await engine.close();
    }
  });
});
