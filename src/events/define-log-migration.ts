import type { Envelope } from './envelope.js';

/**
 * A copy-transform migration: `engram migrate` writes a new log with every event passed through
 * `transform`, verifies it, and only then puts it in place of the old one, which is kept. For
 * what cannot be done at read time: taking a secret out of stored events once a redaction rule
 * learns to see it.
 */
export interface LogMigration {
  /** The migration's number and name, as its file in migrations/ is called. */
  readonly id: string;
  readonly description: string;
  /**
   * Pure. Returns the event as it should now be stored, or the very same object when it needs
   * no change. Never changes an event's id, type or order.
   */
  transform(event: Envelope): Envelope;
}

export function defineLogMigration(migration: LogMigration): LogMigration {
  return migration;
}
