import { resolvePaths } from '../paths.js';
import { applyHookConfig } from './hook-config.js';
import { runHookCode } from './run-hook-code.js';

// What each hook's command runs (`dist/hooks/<name>.cjs`, this file, copied once per hook by
// scripts/build-hooks.mjs): the hook's own bundle, `<name>.code.cjs` beside it, through V8's
// code cache. Node's `argv[1]` is the file it was asked to run. config.json's hook settings
// first, so the bundle and any worker it starts see them.
applyHookConfig(resolvePaths(process.env).home);
runHookCode(process.argv[1]!.replace(/\.cjs$/, '.code.cjs'));
