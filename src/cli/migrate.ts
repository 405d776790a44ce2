import { closeSync, openSync, rmSync, utimesSync } from 'node:fs';
import { basename } from 'node:path';
import { logMigrations } from '../../migrations/index.js';
import type { Clock } from '../clock.js';
import { EngramError } from '../errors.js';
import { defaultCatalog } from '../events/default-catalog.js';
import { LevelEventLog } from '../log/level-event-log.js';
import { finishInterruptedSwap, planMigrations, swapInMigratedLog, writeMigratedLog, type MigrationPlan } from '../log/migrate-log.js';
import type { EngramPaths } from '../paths.js';
import { Engine } from '../workers/engine/engine.js';
import { askWorker, pingWorker } from '../workers/socket/worker-client.js';
import { describePlan } from '../workers/commands/migrate-plan.js';
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
  const pong = await pingWorker(paths);
  if (pong) {
    await askWorker(paths, { op: 'stop' }, () => undefined);
    await waitUntilGone(pong.pid);
  }
  const release = holdStartLock(paths.startLock);
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
    const engine = await Engine.open({ paths, clock: options.clock });
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

// Hooks start a worker only if they can create the start lock; keeping it fresh keeps them off.
export function holdStartLock(path: string): () => void {
  try {
    closeSync(openSync(path, 'a'));
  } catch {
    return () => undefined;
  }
  const timer = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // removed under us: nothing to keep fresh
    }
  }, 2000);
  return () => {
    clearInterval(timer);
    rmSync(path, { force: true });
  };
}

export async function waitUntilGone(pid: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new EngramError('WORKER_UNREACHABLE', `worker ${pid} did not stop`);
}
