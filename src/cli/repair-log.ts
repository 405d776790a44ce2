import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Clock } from '../clock.js';
import { finishInterruptedSwap, swapInMigratedLog } from '../log/migrate-log.js';
import { writeRepairedLog } from '../log/repair-log.js';
import type { EngramPaths } from '../paths.js';
import { openEngine } from '../composition/open-engine.js';
import { takeLogAlone } from './take-log-alone.js';
import type { Terminal } from './run-engine-command.js';

/**
 * `engram log repair`: a new log of every readable event, at its seq, with a LogRepaired event
 * for each stretch lost; the old log is kept beside it (`log.damaged-<time>`), and every
 * projection is rebuilt. Like `migrate`, it runs with the log to itself: the worker is stopped
 * and hooks are kept from starting another (their events wait in the spool).
 */
export async function repairLog(options: { paths: EngramPaths; clock: Clock; terminal: Terminal }): Promise<number> {
  const { paths, terminal } = options;
  const release = await takeLogAlone(paths);
  try {
    finishInterruptedSwap(paths.log);
    const now = options.clock.now();
    const backupName = `${basename(paths.log)}.damaged-${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`;
    const report = await writeRepairedLog(paths.log, { now, oldLog: join(dirname(paths.log), backupName) });
    if (!report) {
      rmSync(paths.logBroken, { force: true });
      terminal.stdout.write('the log is whole: nothing to repair\n');
      return 0;
    }
    const backup = swapInMigratedLog(paths.log, backupName);
    rmSync(paths.logBroken, { force: true });
    const lost = report.lost.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`)).join(', ');
    terminal.stdout.write(
      `kept ${report.kept} events${report.salvaged ? ' (the log did not open: LevelDB salvaged it first)' : ''}; ` +
        `${report.lost.length > 0 ? `lost seqs ${lost}, recorded as LogRepaired events` : 'nothing lost'}; the old log is kept at ${backup}\n`,
    );
    const engine = await openEngine({ paths, clock: options.clock });
    try {
      await engine.runner.rebuild();
    } finally {
      await engine.close();
    }
    terminal.stdout.write('projections rebuilt from the repaired log\n');
    return 0;
  } finally {
    release();
  }
}
