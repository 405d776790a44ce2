import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';

/**
 * Where the plugin keeps what runs beside its hooks but needs `node_modules` (the worker: LevelDB,
 * LanceDB, the model): `${CLAUDE_PLUGIN_DATA}/runtime`, the directory Claude Code keeps for a plugin
 * across its updates and removes with it; `<ENGRAM_HOME>/runtime` where Claude Code sets no such
 * directory. Never under `${CLAUDE_PLUGIN_ROOT}`, which each update replaces. Node built-ins only:
 * hooks call this.
 */
export function runtimeDir(paths: EngramPaths, env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_PLUGIN_DATA ? join(env.CLAUDE_PLUGIN_DATA, 'runtime') : join(paths.home, 'runtime');
}
