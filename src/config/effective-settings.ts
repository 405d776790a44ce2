import type { EngramPaths } from '../paths.js';
import { readConfigFile, type ConfigValues } from './config-file.js';
import { SETTINGS, type SettingSpec } from './setting-table.js';

/**
 * Names, in an environment engram made, of the variables it filled from config.json (not the
 * user's): a process started with that environment (a worker a hook or the CLI starts) reads the
 * file again rather than taking them for overrides. Hooks set it the same way (hook-config.ts).
 */
export const FILLED_FROM_FILE = 'ENGRAM_CONFIG_FROM_FILE';

export type SettingSource = 'env' | 'file' | 'default';

export interface EffectiveSetting {
  key: string;
  env: string;
  /** As the environment variable spells it ('' for none). */
  value: string;
  source: SettingSource;
}

/** The environment the user gave, less what engram itself filled in from the file. */
function ownEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = { ...env };
  for (const name of (env[FILLED_FROM_FILE] ?? '').split(',')) if (name) delete own[name];
  delete own[FILLED_FROM_FILE];
  return own;
}

const isSet = (value: string | undefined): value is string => value !== undefined && value !== '';

/** Each setting's value and where it came from: the environment over the file over the default. */
export function resolveSettings(env: NodeJS.ProcessEnv, file: ConfigValues): EffectiveSetting[] {
  const own = ownEnv(env);
  return SETTINGS.map((spec: SettingSpec) => {
    const fromEnv = own[spec.env];
    if (isSet(fromEnv)) return { key: spec.key, env: spec.env, value: fromEnv, source: 'env' as const };
    const fromFile = file[spec.key];
    if (fromFile !== undefined) return { key: spec.key, env: spec.env, value: spec.toEnv(fromFile), source: 'file' as const };
    return { key: spec.key, env: spec.env, value: spec.default, source: 'default' as const };
  });
}

/**
 * The environment every reader in the CLI and the worker takes its settings from: the user's,
 * with each setting it leaves unset filled from config.json. Throws CONFIG_INVALID for a file
 * it cannot trust.
 */
export function withConfig(env: NodeJS.ProcessEnv, paths: Pick<EngramPaths, 'config'>): NodeJS.ProcessEnv {
  const own = ownEnv(env);
  const file = readConfigFile(paths);
  const filled: string[] = [];
  for (const spec of SETTINGS) {
    const value = file[spec.key];
    if (value === undefined || isSet(own[spec.env])) continue;
    own[spec.env] = spec.toEnv(value);
    filled.push(spec.env);
  }
  if (filled.length > 0) own[FILLED_FROM_FILE] = filled.join(',');
  return own;
}

/** What one process runs with: `engram doctor` shows the worker's (asked over the socket). */
export interface SettingsReport {
  /** `worker` when the worker answered, `cli` when the command ran in the CLI's own process. */
  process: 'worker' | 'cli';
  pid: number;
  settings: EffectiveSetting[];
  /** The LLM the distiller and the audit would call: `llmCommand`, `claude` on PATH, or none. */
  llm: 'llmCommand' | 'claude' | 'none';
}
