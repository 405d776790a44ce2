import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { syntheticEvents } from './synthetic-events.js';

export interface DurableAppendResult {
  /** Per round: median ms of a synced append and of the same append unsynced. */
  perRound: Array<{ events: number; syncedMs: number; unsyncedMs: number }>;
}

/**
 * The cost of "durable before deleted": the log's append synced to disk (what ingest does before
 * it removes spool files) against the same append unsynced (what it did before), interleaved
 * round by round so that a busy machine slows both alike. Rounds of 500 events are a busy
 * ingest round; rounds of 1 the common case of one hook's file at a time.
 */
export async function durableAppendBench(scratch: string, rounds = 9): Promise<DurableAppendResult> {
  const events = syntheticEvents({ sessions: 20, eventsPerSession: 100, seed: 17 });
  const perRound: DurableAppendResult['perRound'] = [];
  for (const size of [500, 1]) {
    const synced: number[] = [];
    const unsynced: number[] = [];
    // Round 0 warms up both sides and is not counted.
    for (let round = 0; round <= rounds; round++) {
      for (const durable of round % 2 === 0 ? [true, false] : [false, true]) {
        const dir = join(scratch, `durable-${size}-${round}-${durable}`);
        const log = await LevelEventLog.open(dir, { durable });
        const batches = size === 1 ? 50 : events.length / size;
        const t = performance.now();
        for (let i = 0; i < batches; i++) await log.append(events.slice(i * size, (i + 1) * size));
        const ms = (performance.now() - t) / batches;
        await log.close();
        rmSync(dir, { recursive: true, force: true });
        if (round > 0) (durable ? synced : unsynced).push(ms);
      }
    }
    perRound.push({ events: size, syncedMs: median(synced), unsyncedMs: median(unsynced) });
  }
  return { perRound };
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
