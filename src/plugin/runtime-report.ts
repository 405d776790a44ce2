import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { processRunning } from '../launch/live-worker.js';
import { readRuntimeStatus, runtimeBuildDir, runtimeCli } from '../launch/runtime-status.js';

export interface RuntimeFinding {
  ok: boolean;
  text: string;
}

/**
 * For `engram doctor`: each build's runtime under a plugin's runtime directory (see
 * prepare-runtime.ts): ready, being prepared (and at which step), or failed (and why).
 */
export function runtimeFindings(runtime: string): RuntimeFinding[] {
  let builds: string[];
  try {
    builds = readdirSync(runtime).sort();
  } catch {
    return [];
  }
  return builds.map((build): RuntimeFinding => {
    const dir = runtimeBuildDir(runtime, build);
    if (existsSync(runtimeCli(runtime, build))) return { ok: true, text: `the plugin's worker runtime for build ${build} is ready in ${dir}` };
    const status = readRuntimeStatus(runtime, build);
    if (status?.state === 'failed') {
      return { ok: false, text: `the plugin's worker runtime for build ${build} could not be prepared (${status.error ?? status.step}, at ${status.since}); hooks keep spooling, and the next plugin hook tries again after 10 minutes. npm's output: ${join(dir, 'npm.log')}` };
    }
    if (status?.pid !== undefined && processRunning(status.pid)) {
      return { ok: true, text: `the plugin's worker runtime for build ${build} is being prepared: ${status.step} (since ${status.since}); hooks keep spooling until it is ready` };
    }
    return { ok: false, text: `the plugin's worker runtime for build ${build} in ${dir} is unfinished and nothing is preparing it; the next plugin hook starts again` };
  });
}
