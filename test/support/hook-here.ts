import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { HookHandoff } from '../../src/hooks/hook-handoff.js';
import { hookFiles, hooksDir, type HookName } from './temp-home.js';

type HookMain = (handoff: HookHandoff, env: NodeJS.ProcessEnv) => Promise<void>;
const require = createRequire(import.meta.url);

/**
 * A hook's built bundle (`dist/hooks/<name>.code.cjs`, what its process runs) run in this process
 * with `payload` as its stdin: the same parsing, redaction and spool write as {@link runHook}
 * without a node start per event. For what a hook makes of its input; what needs the process
 * (stdin itself, the entry, the code cache, exit codes, what it prints) keeps `runHook`: a hook run
 * here prints its context, if it has one, on this process's stdout.
 */
export async function runHookHere(hook: HookName, payload: unknown, env: NodeJS.ProcessEnv): Promise<void> {
  const bundle = require(join(hooksDir, hookFiles[hook].replace(/\.cjs$/, '.code.cjs'))) as { main?: HookMain };
  if (typeof bundle.main !== 'function') throw new Error(`the ${hook} bundle exports no main`);
  const bytes = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  await bundle.main({ stdin: { bytes, total: bytes.length } }, env);
}
