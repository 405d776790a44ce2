import { lstat, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-write.js';
import { systemClock } from '../clock.js';
import { EngramError } from '../errors.js';

/** Reading and writing Claude Code's settings.json: atomically, with a backup, keeping its mode. */

export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

export interface CurrentSettings {
  settings: JsonObject;
  /** The bytes as read, for the backup. */
  raw: Buffer;
  /** Permission bits, kept on the rewrite and the backup: settings can hold tokens under `env`. */
  mode: number;
}

export async function readSettings(settingsPath: string): Promise<CurrentSettings | null> {
  let raw: Buffer;
  try {
    raw = await readFile(settingsPath);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    throw new EngramError('SETTINGS_INVALID', `cannot read ${settingsPath}`, { cause: err });
  }
  let parsed: unknown;
  try {
    // A BOM is legal in a UTF-8 file some Windows editors write, and JSON.parse refuses it.
    parsed = JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new EngramError('SETTINGS_INVALID', `${settingsPath} is not valid JSON`, { cause: err });
  }
  if (!isObject(parsed)) {
    throw new EngramError('SETTINGS_INVALID', `${settingsPath} does not hold a JSON object`);
  }
  const { mode } = await stat(settingsPath);
  return { settings: parsed, raw, mode: mode & 0o777 };
}

/**
 * Backs up the previous content (when there was a file), then replaces the settings atomically
 * (writeFileAtomic: a synced temp file renamed over it). A symlinked settings.json (dotfile
 * managers do that) stays a symlink; its target is what gets replaced.
 */
export async function writeSettings(
  settingsPath: string,
  settings: JsonObject,
  current: CurrentSettings | null,
  now: Date = systemClock.now(),
): Promise<string | null> {
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  let backupPath: string | null = null;
  let target = settingsPath;
  if (current) {
    backupPath = await writeBackup(settingsPath, current, now);
    if ((await lstat(settingsPath)).isSymbolicLink()) target = await realpath(settingsPath);
  }
  // An existing file keeps its permission bits exactly; a new one gets what an editor gives it.
  writeFileAtomic(target, text, current ? { mode: current.mode } : {});
  return backupPath;
}

/** `<settings>.engram-backup-<ISO time>`, with a counter rather than ever overwriting a backup. */
async function writeBackup(settingsPath: string, current: CurrentSettings, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; ; attempt++) {
    const path = `${settingsPath}.engram-backup-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    try {
      await writeFile(path, current.raw, { flag: 'wx', mode: current.mode });
      return path;
    } catch (err) {
      if (!isErrno(err, 'EEXIST')) throw err;
    }
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}
