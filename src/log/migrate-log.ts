import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { syncDir, writeFileAtomic } from '../atomic-write.js';
import { describeError, EngramError } from '../errors.js';
import type { EventCatalog } from '../events/catalog.js';
import { defaultCatalog } from '../events/default-catalog.js';
import type { StoredEnvelope } from '../events/envelope.js';
import type { LogMigration } from '../events/define-log-migration.js';
import { EventCodec } from './event-codec.js';
import type { EventLog } from './event-log.js';
import { LevelEventLog } from './level-event-log.js';
import { appendKeepingSeqs } from './append-keeping-seqs.js';

/** The log meta key listing the ids of the copy-transform migrations a log has been through. */
export const APPLIED_META = 'migrations.applied';
const VERIFIED_MARK = 'ENGRAM_VERIFIED';

export interface MigrationPlan {
  pending: Array<{
    id: string;
    description: string;
    /** Events this migration would rewrite, by type. */
    changedByType: Record<string, number>;
    changed: number;
    /** The first few events it would rewrite. */
    examples: Array<{ seq: number; id: string; type: string }>;
  }>;
  events: number;
}

export async function appliedMigrations(log: EventLog): Promise<string[]> {
  const stored = await log.getMeta(APPLIED_META);
  return stored ? (JSON.parse(stored) as string[]) : [];
}

/** A new, empty log is born migrated: nothing in it predates any rule. */
export async function stampNewLog(log: EventLog, migrations: readonly LogMigration[]): Promise<void> {
  if (log.head === 0 && (await log.getMeta(APPLIED_META)) === undefined) {
    await log.setMeta(APPLIED_META, JSON.stringify(migrations.map((m) => m.id)));
  }
}

/**
 * What `engram migrate` would change, read from the log without writing anything. Every event is
 * checked as `writeMigratedLog` checks what it wrote (same id and type, encoded and decoded, read
 * through the catalog), so a dry run fails exactly where the real run would, and `migrate`, which
 * plans first, fails before it writes anything.
 */
export async function planMigrations(
  log: EventLog,
  migrations: readonly LogMigration[],
  catalog: EventCatalog = defaultCatalog(),
): Promise<MigrationPlan> {
  const applied = new Set(await appliedMigrations(log));
  const pending = migrations.filter((m) => !applied.has(m.id));
  const plan: MigrationPlan = {
    pending: pending.map((m) => ({ id: m.id, description: m.description, changedByType: {}, changed: 0, examples: [] })),
    events: log.head,
  };
  if (pending.length === 0) return plan;
  const codec = new EventCodec();
  for await (const batch of log.read()) {
    for (const event of batch) {
      let current = event;
      pending.forEach((migration, i) => {
        const next = migration.transform(current);
        if (next === current) return;
        const entry = plan.pending[i]!;
        entry.changed++;
        entry.changedByType[event.type] = (entry.changedByType[event.type] ?? 0) + 1;
        if (entry.examples.length < 5) entry.examples.push({ seq: event.seq, id: event.id, type: event.type });
        current = { ...next, seq: event.seq };
      });
      checkMigrated(event, current, codec, catalog);
    }
  }
  return plan;
}

function checkMigrated(before: StoredEnvelope, after: StoredEnvelope, codec: EventCodec, catalog: EventCatalog): void {
  const { seq } = before;
  if (after.id !== before.id || after.type !== before.type) {
    throw new EngramError('MIGRATION_FAILED', `a migration changed the id or type of the event at seq ${seq}`);
  }
  try {
    catalog.readStored(codec.decode(seq, codec.encode(after)));
  } catch (err) {
    throw new EngramError('MIGRATION_FAILED', `the event at seq ${seq} would not be readable after migrating: ${describeError(err)}`, { cause: err });
  }
}

/**
 * Writes `<log>.migrating` from the open `log` through the pending migrations, then checks it:
 * same number of events, same ids and types in the same order, each one readable. Only a
 * verified copy is marked; `swapInMigratedLog` then puts it in place.
 */
export async function writeMigratedLog(
  log: EventLog,
  logDir: string,
  migrations: readonly LogMigration[],
  catalog: EventCatalog,
  onProgress?: (done: number, total: number) => void,
): Promise<{ dir: string; applied: string[] }> {
  const applied = await appliedMigrations(log);
  const pending = migrations.filter((m) => !applied.includes(m.id));
  const dir = `${logDir}.migrating`;
  rmSync(dir, { recursive: true, force: true });
  const target = await LevelEventLog.open(dir);
  try {
    let copied = 0;
    for await (const batch of log.read({ batchSize: 2000 })) {
      const rewritten = batch.map(({ seq, ...event }) => ({ ...pending.reduce((e, m) => m.transform(e), event), seq }));
      // At their seqs: seqs a lost tail or a repair left unused stay unused (see LogRepaired).
      await appendKeepingSeqs(target, rewritten);
      copied += batch.length;
      onProgress?.(batch[batch.length - 1]!.seq, log.head);
    }
    const original = log.read({ batchSize: 2000 })[Symbol.asyncIterator]();
    let queue: Awaited<ReturnType<typeof original.next>>['value'] = [];
    let checked = 0;
    for await (const batch of target.read({ batchSize: 2000 })) {
      for (const event of batch) {
        if (queue.length === 0) queue = (await original.next()).value ?? [];
        const before = queue.shift();
        if (!before || before.id !== event.id || before.type !== event.type || before.seq !== event.seq) {
          throw new EngramError('MIGRATION_FAILED', `the migrated log differs from the old one at seq ${event.seq}`);
        }
        catalog.readStored(event);
        checked++;
      }
    }
    if (checked !== copied || target.head !== log.head) {
      throw new EngramError('MIGRATION_FAILED', `the migrated log holds ${checked} events up to seq ${target.head}, the old one ${copied} up to ${log.head}`);
    }
    const nowApplied = [...applied, ...pending.map((m) => m.id)];
    await target.setMeta(APPLIED_META, JSON.stringify(nowApplied));
    for (const name of ['created']) {
      const value = await log.getMeta(name);
      if (value !== undefined) await target.setMeta(name, value);
    }
    await target.close();
    writeFileAtomic(join(dir, VERIFIED_MARK), `${nowApplied.join('\n')}\n`);
    return { dir, applied: nowApplied };
  } catch (err) {
    await target.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Marks a log written beside the live one as checked whole, so `swapInMigratedLog` may put it in place. */
export function markVerified(dir: string, note: string): void {
  writeFileAtomic(join(dir, VERIFIED_MARK), `${note}\n`);
}

/** The steps of a swap, in order; a test may stop a swap after any of them, as a crash would. */
export type SwapStep = 'old-log-moved' | 'new-log-moved' | 'mark-removed';

/**
 * Puts a verified migrated log in place; the old log is kept beside it, never deleted. The log
 * must be closed. Crash-safe: the verified copy keeps its mark until it is in place, so a crash
 * after any rename leaves either the old log, or no log and a verified copy that
 * `finishInterruptedSwap` puts in place on the next open, never a missing log that LevelDB
 * would silently recreate empty.
 */
export function swapInMigratedLog(logDir: string, backupName: string, afterStep?: (step: SwapStep) => void): string | undefined {
  const migrated = `${logDir}.migrating`;
  if (!existsSync(join(migrated, VERIFIED_MARK))) return undefined;
  const backup = join(logDir, '..', backupName);
  if (existsSync(logDir)) renameSync(logDir, backup);
  syncDir(dirname(logDir));
  afterStep?.('old-log-moved');
  renameSync(migrated, logDir);
  syncDir(dirname(logDir));
  afterStep?.('new-log-moved');
  rmSync(join(logDir, VERIFIED_MARK), { force: true });
  afterStep?.('mark-removed');
  return backup;
}

/** Before any open: a swap that stopped after moving the old log away is completed. */
export function finishInterruptedSwap(logDir: string): void {
  if (!existsSync(logDir) && existsSync(join(`${logDir}.migrating`, VERIFIED_MARK))) {
    renameSync(`${logDir}.migrating`, logDir);
    syncDir(dirname(logDir));
  }
  // A swap that stopped after its last rename left only its mark behind.
  rmSync(join(logDir, VERIFIED_MARK), { force: true });
}
