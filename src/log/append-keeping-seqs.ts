import { EngramError } from '../errors.js';
import type { StoredEnvelope } from '../events/envelope.js';
import type { LevelEventLog } from './level-event-log.js';

/**
 * Appends events copied from another log at the seqs they had there, so that whatever names a
 * seq (provenance, a checkpoint, a LogRepaired event) still names the same event. Seqs the
 * source left unused (a lost tail, a damaged block) stay unused. The events must come in seq
 * order, after the target's head, and be new to it.
 */
export async function appendKeepingSeqs(target: LevelEventLog, events: readonly StoredEnvelope[]): Promise<void> {
  let run: StoredEnvelope[] = [];
  const flush = async (): Promise<void> => {
    if (run.length === 0) return;
    target.skipTo(run[0]!.seq - 1);
    const { appended } = await target.append(run.map(({ seq: _seq, ...event }) => event));
    if (appended.length !== run.length || appended[0]!.seq !== run[0]!.seq) {
      throw new EngramError('MIGRATION_FAILED', `events from seq ${run[0]!.seq} could not be copied at their seqs (an id twice in the log?)`);
    }
    run = [];
  };
  for (const event of events) {
    if (run.length > 0 && event.seq !== run[run.length - 1]!.seq + 1) await flush();
    run.push(event);
  }
  await flush();
}
