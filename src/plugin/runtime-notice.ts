import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';
import { runtimeDir } from '../launch/runtime-dir.js';
import { readRuntimeStatus, runtimeBuildDir, runtimeCli } from '../launch/runtime-status.js';

/**
 * The SessionStart line of the plugin's hooks while their worker's runtime is not ready (see
 * prepare-runtime.ts): what is being prepared, or why it failed; '' once it is ready. Stated as
 * facts, not instructions (DESIGN.md: imperative text can trip prompt-injection defences).
 */
export function runtimeNotice(paths: EngramPaths, env: NodeJS.ProcessEnv, build: string): string {
  const runtime = runtimeDir(paths, env);
  if (existsSync(runtimeCli(runtime, build))) return '';
  const status = readRuntimeStatus(runtime, build);
  const dir = runtimeBuildDir(runtime, build);
  if (status?.state === 'failed') {
    return `engram could not prepare its worker (${status.error ?? status.step}); this session is still recorded in its spool at ${paths.spoolNew} and nothing is lost. It tries again at a later session start; npm's output is in ${join(dir, 'npm.log')}.`;
  }
  return `engram is preparing its worker in the background (${status?.step ?? `installing its dependencies into ${dir}`}, a minute or two the first time); until it is ready, this session is recorded in engram's spool and nothing is lost.`;
}
