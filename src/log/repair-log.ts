import { cpSync, rmSync } from 'node:fs';
import { Level } from 'level';
import { EngramError, isEngramError } from '../errors.js';
import type { Envelope } from '../events/envelope.js';
import { LogRepaired } from '../events/log-events.js';
import { stampProducer } from '../events/stamp-producer.js';
import { appendKeepingSeqs } from './append-keeping-seqs.js';
import { LevelEventLog } from './level-event-log.js';
import type { DamagedRange } from './log-check.js';
import { APPLIED_META, markVerified } from './migrate-log.js';

export interface RepairReport {
  /** Events copied into the new log. */
  kept: number;
  /** The stretches of seqs that could not be read, each recorded as a LogRepaired event. */
  lost: DamagedRange[];
  /** The old log's head. */
  head: number;
  /** True when the old log did not open and LevelDB's own repair had to salvage it first. */
  salvaged: boolean;
  /** Where the new log was written (`<log>.migrating`, marked verified), to swap in. */
  dir: string;
}

/**
 * Writes `<log>.migrating`: every event of the log at `logDir` that can be read, at its own
 * seq, then one LogRepaired event per stretch that could not be, so that the log says itself
 * what it lost. The log keeps its id: checkpoints stay comparable, so a projection ahead of
 * what was kept is still seen as ahead. A log that does not open is first salvaged on a copy
 * by LevelDB's own repair; what that drops shows as seqs missing below the head. Returns
 * undefined when the log is whole and nothing needs repairing. The log must be closed.
 */
export async function writeRepairedLog(logDir: string, options: { now: Date; oldLog: string }): Promise<RepairReport | undefined> {
  let source: LevelEventLog;
  const salvage = `${logDir}.salvage`;
  let salvaged = false;
  try {
    source = await LevelEventLog.open(logDir, { createIfMissing: false });
  } catch (err) {
    if (!isEngramError(err, 'LOG_CORRUPT')) throw err;
    rmSync(salvage, { recursive: true, force: true });
    cpSync(logDir, salvage, { recursive: true });
    await (Level as unknown as { repair(location: string): Promise<void> }).repair(salvage);
    source = await LevelEventLog.open(salvage, { createIfMissing: false });
    salvaged = true;
  }
  const dir = `${logDir}.migrating`;
  try {
    const lost: DamagedRange[] = [];
    const check = salvaged ? undefined : await source.check();
    if (check && check.damaged.length === 0 && check.indexDamage === undefined) {
      const whole = await source.check({ decode: true });
      if (whole.damaged.length === 0) return undefined;
    }
    rmSync(dir, { recursive: true, force: true });
    const target = await LevelEventLog.open(dir);
    try {
      let kept = 0;
      let expected = 1;
      for await (const batch of source.readWhole(lost, { decode: true })) {
        if (salvaged) {
          // What LevelDB's repair dropped leaves no trace but a missing seq.
          for (const event of batch) {
            if (event.seq > expected) lost.push({ from: expected, to: event.seq - 1, reason: 'missing after LevelDB salvaged a log that did not open' });
            expected = event.seq + 1;
          }
        }
        await appendKeepingSeqs(target, batch);
        kept += batch.length;
      }
      lost.sort((a, b) => a.from - b.from);
      // Lost seqs, at the tail too, are never handed out again.
      target.skipTo(source.head);
      const oldLog = options.oldLog;
      const events: Envelope[] = lost.map((range) => ({
        id: `log-repaired:${source.id}:${range.from}-${range.to}`,
        type: LogRepaired.type,
        schemaVersion: LogRepaired.schemaVersion,
        ts: options.now.toISOString(),
        session: '',
        project: '',
        data: { lostFrom: range.from, lostTo: range.to, kept, cause: 'repair', reason: range.reason.slice(0, 2000), oldLog },
      }));
      if (events.length > 0) await target.append(stampProducer(events));
      for (const name of [APPLIED_META, 'created']) {
        const value = await source.getMeta(name);
        if (value !== undefined) await target.setMeta(name, value);
      }
      // The log's id (level-event-log.ts keeps it under this meta name): see above.
      await target.setMeta('logId', source.id);
      await target.close();
      markVerified(dir, `repaired: ${kept} events kept, ${lost.length} stretch(es) lost`);
      return { kept, lost, head: source.head, salvaged, dir };
    } catch (err) {
      await target.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      throw new EngramError('LOG_CORRUPT', 'the repaired log could not be written; the log is as it was', { cause: err });
    }
  } finally {
    await source.close();
    rmSync(salvage, { recursive: true, force: true });
  }
}
