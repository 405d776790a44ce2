import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';
import { runtimeDir } from '../launch/runtime-dir.js';
import { runtimeFindings, type RuntimeFinding } from '../plugin/runtime-report.js';

/**
 * For `engram doctor`: the worker runtimes of engram's plugin. Where they are: this process's
 * `CLAUDE_PLUGIN_DATA` (doctor run from the plugin's runtime), each enabled engram plugin's data
 * directory (Claude Code names it `<config>/plugins/data/<plugin>-<marketplace>`, characters
 * other than letters, digits, `_` and `-` as `-`), and `<ENGRAM_HOME>/runtime`.
 */
export function pluginRuntimes(paths: EngramPaths, env: NodeJS.ProcessEnv, plugins: readonly string[]): RuntimeFinding[] {
  const dirs = new Set([runtimeDir(paths, env), runtimeDir(paths, {})]);
  for (const plugin of plugins) {
    const id = plugin.split(' ')[0]!.replace('@', '-').replace(/[^A-Za-z0-9_-]/g, '-');
    dirs.add(runtimeDir(paths, { CLAUDE_PLUGIN_DATA: join(paths.claude, 'plugins', 'data', id) }));
  }
  return [...dirs].flatMap(runtimeFindings);
}
