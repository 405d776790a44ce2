import { EngramError } from '../errors.js';
import type { StoredEnvelope } from '../events/envelope.js';
import type { AppendResult, EventLog } from './event-log.js';
import type { LogCheck } from './log-check.js';

/**
 * What a read-only command sees where no log exists yet: nothing. Opening the real log would
 * create one, and a command that only reads must leave the disk as it found it.
 */
export class EmptyEventLog implements EventLog {
  readonly id = '';
  readonly head = 0;

  append(): Promise<AppendResult> {
    return Promise.reject(new EngramError('LOG_MISSING', 'there is no log to append to: this command only reads'));
  }

  async has(ids: readonly string[]): Promise<boolean[]> {
    return ids.map(() => false);
  }

  async *read(): AsyncIterable<StoredEnvelope[]> {
    // no events
  }

  async check(): Promise<LogCheck> {
    return { readable: 0, head: 0, damaged: [] };
  }

  async getMeta(): Promise<string | undefined> {
    return undefined;
  }

  setMeta(): Promise<void> {
    return Promise.reject(new EngramError('LOG_MISSING', 'there is no log to write to: this command only reads'));
  }

  async close(): Promise<void> {
    // nothing held
  }
}
