import { existsSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';
import { runtimeDir } from '../launch/runtime-dir.js';

/**
 * What `engram uninstall --purge` removes: engram's own data, by name, and nothing else. Memory
 * files are never on the list (they live in Claude Code's directories, and a person may have
 * written or edited any of them); an entry of ENGRAM_HOME that engram does not know is kept and
 * named, so a home pointed at a directory holding other things loses only what engram made.
 */
export interface PurgePlan {
  /** Existing paths that will be removed, each a file or a whole directory. */
  remove: string[];
  /** Entries of ENGRAM_HOME that are not engram's and stay. */
  keep: string[];
}

/** Names engram creates directly under ENGRAM_HOME (see paths.ts, run-llm.ts, migrate). */
const OWN_ENTRIES = new Set(['spool', 'log', 'log.migrating', 'state', 'views', 'logs', 'vectors', 'cache', 'models', 'scratch', 'runtime', 'worker.pid', 'worker.sock', 'worker.starting']);

export function planPurge(paths: EngramPaths, env: NodeJS.ProcessEnv): PurgePlan {
  const remove: string[] = [];
  const keep: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(paths.home).sort();
  } catch {
    // No home: nothing of engram's there.
  }
  for (const name of names) {
    // `log.before-<migration>-<time>`: an old log `engram migrate` kept.
    if (OWN_ENTRIES.has(name) || name.startsWith('log.before-')) remove.push(join(paths.home, name));
    else keep.push(join(paths.home, name));
  }
  // A socket path too long for sun_path lives in /tmp instead (paths.ts).
  if (!paths.socket.startsWith(paths.home) && existsSync(paths.socket)) remove.push(paths.socket);
  const runtime = runtimeDir(paths, env);
  if (!runtime.startsWith(paths.home) && existsSync(runtime)) remove.push(runtime);
  return { remove, keep };
}

/** Removes what the plan names, then ENGRAM_HOME itself when nothing else is left in it. */
export function executePurge(paths: EngramPaths, plan: PurgePlan): void {
  for (const path of plan.remove) rmSync(path, { recursive: true, force: true });
  if (plan.keep.length === 0) {
    try {
      rmdirSync(paths.home);
    } catch {
      // Something appeared meanwhile, or there was no home: keep it.
    }
  }
}

export function describePurge(plan: PurgePlan): string {
  if (plan.remove.length === 0) return 'nothing of engram\'s data to remove\n';
  const lines = ['engram uninstall --purge removes:', ...plan.remove.map((path) => `  ${path}`)];
  if (plan.keep.length > 0) lines.push('and keeps (not engram\'s):', ...plan.keep.map((path) => `  ${path}`));
  lines.push('Memory files in Claude Code\'s directories are kept, whoever wrote them.');
  return `${lines.join('\n')}\n`;
}
