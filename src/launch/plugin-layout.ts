import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a hook bundle finds the CLI that runs the worker: in a build (dist/hooks beside
 * dist/src) it is `../src/cli/main.js`. The plugin's hooks (plugin/hooks in a plain clone of the
 * repository) have none beside them: their worker is the runtime engram prepares itself
 * (prepare-runtime.ts), and `../prepare-runtime.cjs` is what prepares it.
 */
export function cliBesideHooks(): string {
  return join(here(), '../src/cli/main.js');
}

export function prepareRuntimeBesideHooks(): string {
  return join(here(), '../prepare-runtime.cjs');
}

/**
 * This file's directory; in a hook bundle, the bundle's (scripts/bundle-hooks.mjs makes
 * `import.meta.dirname` its `__dirname`): every hook asks, and a file URL made and read back
 * cost it ≈ 0.7 ms. Node 20 before 20.11 has no `import.meta.dirname`.
 */
function here(): string {
  return import.meta.dirname ?? dirname(fileURLToPath(import.meta.url));
}

/** True for the plugin's hooks: no built CLI beside them. One stat. */
export function runsAsPlugin(): boolean {
  return !existsSync(cliBesideHooks());
}
