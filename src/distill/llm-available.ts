import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether the distiller can call an LLM: `ENGRAM_LLM_CMD` is set, or an executable `claude` is on
 * `PATH`. When not, the distiller writes plain episodes from the trace and `engram doctor` says so.
 */
export function llmAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.ENGRAM_LLM_CMD?.trim()) return true;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'claude');
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      // Not here, or not executable: the next directory.
    }
  }
  return false;
}
