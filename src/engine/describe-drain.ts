import { BUILD_ID } from '../build-id.js';
import type { TickReport } from './engine.js';

/**
 * What `engram worker --drain` says when it ends: the counts, then one line for each thing left
 * undone and why. Exit 1 when something needs the user (a file engram could not read, remove or
 * move); files waiting for a newer engram are normal after a downgrade and exit 0.
 */
export function describeDrain(report: TickReport, head: number): { text: string; code: number } {
  const lines = [
    `drained: ${report.ingested} ingested, ${report.duplicates} duplicates skipped, ${report.rejected} rejected, ${report.reacted} from reactors; log head ${head}`,
  ];
  if (report.lost > 0) {
    lines.push(`  ${count(report.lost, 'hook event')} could not be written to the spool by their hooks (a full disk?) and are lost: now on record as HookWritesFailed, see \`engram doctor\``);
  }
  if (report.late > 0) {
    lines.push(`  ${count(report.late, 'file')} named ahead of this machine's clock taken after a short wait (their names are not readings of this clock)`);
  }
  if (report.newer > 0) {
    lines.push(`  ${count(report.newer, 'file')} left in the spool for a newer engram: an event type or schemaVersion this build (${BUILD_ID}) does not read`);
  }
  if (report.stuck > 0) {
    lines.push(`  ${count(report.stuck, 'file')} stuck:`, ...report.problems.map((problem) => `    ${problem}`));
  }
  return { text: `${lines.join('\n')}\n`, code: report.stuck > 0 ? 1 : 0 };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
