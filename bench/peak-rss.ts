import { readFileSync } from 'node:fs';

/**
 * This process's peak resident set, in MB. On Linux, VmHWM from /proc/self/status: getrusage's
 * maxRSS (process.resourceUsage) is kept across fork and exec, so a child of a bench that has
 * loaded the model reports the bench's peak, not its own. Elsewhere, maxRSS.
 */
export function peakRssMb(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}
