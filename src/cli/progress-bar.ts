import type { ProgressUnit } from '../commands/command.js';

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `58.1 MB`: bytes in the unit a person reads (1 KB = 1,000 B, as disks and npm count). */
export function humanBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value >= 100 ? 0 : 1)} ${BYTE_UNITS[unit]}`;
}

/** What follows the bar: `58.1 MB of 120 MB` or `2,279 of 2,365 events`. */
export function progressAmount(done: number, total: number, unit: ProgressUnit): string {
  if (unit === 'bytes') return `${humanBytes(done)} of ${humanBytes(total)}`;
  return `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${unit}`;
}

/** A one-line bar on stderr, only when stderr is a terminal. */
export function progressBar(stderr: NodeJS.WritableStream & { isTTY?: boolean }) {
  let shown = false;
  let last = '';
  return {
    show(done: number, total: number, unit: ProgressUnit = 'events'): void {
      if (!stderr.isTTY || total <= 0) return;
      const ratio = Math.min(1, done / total);
      const percent = Math.floor(ratio * 100);
      const width = 30;
      const filled = Math.round(ratio * width);
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)} % ${progressAmount(done, total, unit)}`;
      if (line === last) return;
      last = line;
      stderr.write(`\r${line}\x1b[K`);
      shown = true;
    },
    clear(): void {
      if (shown) stderr.write('\r\x1b[K');
      shown = false;
      last = '';
    },
  };
}
