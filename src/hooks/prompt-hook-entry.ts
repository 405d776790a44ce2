import { resolvePaths } from '../paths.js';
import { applyHookConfig } from './hook-config.js';
import { promptHandoff } from './prompt-handoff.js';
import { runHookCode } from './run-hook-code.js';

// The prompt hook's command (`dist/hooks/user-prompt-submit.cjs`): as hook-entry.ts, but the
// recall question goes to the worker before the bundle is loaded (prompt-handoff.ts says why).
void (async () => {
  applyHookConfig(resolvePaths(process.env).home);
  const handoff = await promptHandoff(process.env);
  runHookCode(process.argv[1]!.replace(/\.cjs$/, '.code.cjs'), process.env, handoff);
})();
