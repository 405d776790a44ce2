import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { logMigrations } from '../../migrations/index.js';
import type { Clock } from '../clock.js';
import { defaultCatalog } from '../events/default-catalog.js';
import { LevelEventLog } from '../log/level-event-log.js';
import { finishInterruptedSwap, planMigrations, swapInMigratedLog, writeMigratedLog, type MigrationPlan } from '../log/migrate-log.js';
import type { EngramPaths } from '../paths.js';
import { openEngine } from '../composition/open-engine.js';
import { takeLogAlone } from './take-log-alone.js';
import { describePlan } from '../commands/migrate-plan.js';
import { runEngineCommand, type Terminal } from './run-engine-command.js';

/**
 * `engram migrate [--dry-run]`. A copy-transform migration replaces the log, so it runs with the
 * log to itself: the worker is stopped, hooks are kept from starting another (their events
 * wait in the spool), and the worker comes back with the next hook.
 */
export interface MigrateOptions {
  paths: EngramPaths;
  clock: Clock;
  /** Say what would change and write nothing. Default false. */
  dryRun: boolean;
  /**
   * Remove the old log once the new one is verified and in place. Default false: it is kept,
   * though after a redaction migration it still holds what was taken out.
   */
  discardOld?: boolean;
  terminal: Terminal;
}

export async function migrate(options: MigrateOptions): Promise<number> {
  const { paths, terminal } = options;
  if (options.dryRun) return runEngineCommand('migrate.plan', {}, options);
  const release = await takeLogAlone(paths);
  try {
    finishInterruptedSwap(paths.log);
    const log = await LevelEventLog.open(paths.log);
    let plan: MigrationPlan;
    let migrated: { dir: string; applied: string[] } | undefined;
    try {
      plan = await planMigrations(log, logMigrations);
      terminal.stdout.write(describePlan(plan, false));
      if (plan.pending.length === 0) return 0;
      migrated = await writeMigratedLog(log, paths.log, logMigrations, defaultCatalog());
    } finally {
      await log.close();
    }
    const stamp = options.clock.now().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    const backup = swapInMigratedLog(paths.log, `${basename(paths.log)}.before-${plan.pending.at(-1)!.id}-${stamp}`);
    terminal.stdout.write(`migrated ${plan.events} events; the old log is kept at ${backup}\n`);
    // Events changed under every projection: rebuild them all from the new log.
    const engine = await openEngine({ paths, clock: options.clock });
    try {
      await engine.runner.rebuild();
    } finally {
      await engine.close();
    }
    terminal.stdout.write(`projections rebuilt (${migrated.applied.length} migrations applied in all)\n`);
    if (backup && options.discardOld) {
      rmSync(backup, { recursive: true, force: true });
      terminal.stdout.write(`removed the old log ${backup}\n`);
    } else if (backup) {
      terminal.stdout.write('the old log still holds the events as they were; `engram migrate --discard-old` next time removes it once verified, or delete it yourself\n');
    }
    return 0;
  } finally {
    release();
  }
}
