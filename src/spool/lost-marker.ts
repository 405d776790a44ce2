import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';

/**
 * What a hook leaves when it cannot write its spool file: an empty file in spool/lost whose name
 * carries when (wall-clock microseconds), which process, why (the error code) and which hook.
 * A name costs no data block (on tmpfs none at all; on ext4 a directory entry in a block the
 * directory most often already has), so it can still be made on a disk too full for the event,
 * and the worker turns the markers into a HookWritesFailed event. Imports only node:fs: hooks
 * bundle it.
 */
export function leaveLostMarker(paths: EngramPaths, hook: string, code: string | undefined, micros: number): boolean {
  const name = lostMarkerName(micros, process.pid, code, hook);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(join(paths.spoolLost, name), 'wx'));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) return false;
      try {
        mkdirSync(paths.spoolLost, { recursive: true });
      } catch {
        return false;
      }
    }
  }
  return false;
}

export function lostMarkerName(micros: number, pid: number, code: string | undefined, hook: string): string {
  const reason = code && /^[A-Z][A-Z0-9_]{0,39}$/.test(code) ? code : 'UNKNOWN';
  const who = hook.replace(/[^A-Za-z]/g, '').slice(0, 40) || 'unknown';
  return `${String(micros).padStart(16, '0')}-${pid}-${reason}-${who}`;
}

export interface LostMarker {
  micros: number;
  reason: string;
  hook: string;
}

/** A marker's name read back, or undefined for any other name (which the worker leaves alone). */
export function parseLostMarker(name: string): LostMarker | undefined {
  const match = /^(\d{16})-\d+-([A-Z][A-Z0-9_]{0,39})-([A-Za-z]{1,40})$/.exec(name);
  return match ? { micros: Number(match[1]), reason: match[2]!, hook: match[3]! } : undefined;
}
