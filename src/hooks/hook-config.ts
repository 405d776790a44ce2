import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The settings hooks read, with the kind config.json keeps each in (src/config/setting-table.ts
 * is the whole table; a test holds this list to it). Hooks read the file with JSON.parse and a
 * typeof check, not the table's zod shapes: no schema library on the hook's path.
 */
export const HOOK_SETTINGS = [
  { key: 'recallWaitMs', env: 'ENGRAM_RECALL_WAIT_MS', kind: 'number' },
  { key: 'workerAutostart', env: 'ENGRAM_WORKER_AUTOSTART', kind: 'boolean' },
  { key: 'skillCapture', env: 'ENGRAM_SKILL_CAPTURE', kind: 'boolean' },
] as const;

/** As effective-settings.ts FILLED_FROM_FILE (not imported: that module loads zod). */
const FILLED_FROM_FILE = 'ENGRAM_CONFIG_FROM_FILE';

/**
 * Fills the hook settings the environment leaves unset from `<home>/config.json`, in place (so
 * the hook's bundle, and a worker it starts, see them), as the CLI and the worker fill theirs. A
 * file that is missing, not JSON, or holds a value of another kind changes nothing here (the CLI
 * and `engram doctor` say what is wrong with it): a hook never fails over it.
 */
export function applyHookConfig(home: string, env: NodeJS.ProcessEnv = process.env): void {
  let file: Record<string, unknown>;
  try {
    const parsed = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return;
    file = parsed as Record<string, unknown>;
  } catch {
    return;
  }
  const filledBefore = (env[FILLED_FROM_FILE] ?? '').split(',').filter(Boolean);
  const filled: string[] = [];
  for (const { key, env: name, kind } of HOOK_SETTINGS) {
    // A value this hook's own parent filled from the file is read again, not taken as the user's.
    if (filledBefore.includes(name)) delete env[name];
    const value = file[key];
    if (typeof value !== kind || (env[name] !== undefined && env[name] !== '')) continue;
    if (kind === 'number' && !(Number.isFinite(value) && (value as number) >= 0)) continue;
    env[name] = kind === 'boolean' ? (value ? '1' : '0') : String(value);
    filled.push(name);
  }
  // Kept for a worker this hook starts: it reads the file again for each of them.
  const all = [...new Set([...filledBefore.filter((name) => !HOOK_SETTINGS.some((s) => s.env === name)), ...filled])];
  if (all.length > 0) env[FILLED_FROM_FILE] = all.join(',');
  else delete env[FILLED_FROM_FILE];
}
