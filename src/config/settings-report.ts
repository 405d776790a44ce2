import { llmAvailable } from '../distill/llm-available.js';
import { FILLED_FROM_FILE, type EffectiveSetting, type SettingsReport } from './effective-settings.js';
import { SETTINGS } from './setting-table.js';

/**
 * What this process runs with, from the environment withConfig gave it (the user's, filled from
 * config.json): each setting's value and source, and which LLM it would call. Taken once at the
 * start, so it says what the process uses, not what the file says now.
 */
export function settingsReport(process: SettingsReport['process'], env: NodeJS.ProcessEnv): SettingsReport {
  const filled = new Set((env[FILLED_FROM_FILE] ?? '').split(',').filter(Boolean));
  const settings: EffectiveSetting[] = SETTINGS.map((spec) => {
    const value = env[spec.env];
    if (value === undefined || value === '') return { key: spec.key, env: spec.env, value: spec.default, source: 'default' };
    return { key: spec.key, env: spec.env, value, source: filled.has(spec.env) ? 'file' : 'env' };
  });
  const llm = env.ENGRAM_LLM_CMD?.trim() ? 'llmCommand' : llmAvailable(env) ? 'claude' : 'none';
  return { process, pid: globalThis.process.pid, settings, llm };
}
