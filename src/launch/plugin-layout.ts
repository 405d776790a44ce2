import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where a hook bundle finds the CLI that runs the worker: in a build (dist/hooks beside
 * dist/src) it is `../src/cli/main.js`. The plugin's hooks (plugin/hooks in a plain clone of the
 * repository) have none beside them: their worker is the runtime engram prepares itself
 * (prepare-runtime.ts), and `../prepare-runtime.cjs` is what prepares it. In a hook bundle
 * `import.meta.url` is the bundle's own file (scripts/bundle-hooks.mjs).
 */
export function cliBesideHooks(): string {
  return fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
}

export function prepareRuntimeBesideHooks(): string {
  return fileURLToPath(new URL('../prepare-runtime.cjs', import.meta.url));
}

/** True for the plugin's hooks: no built CLI beside them. One stat. */
export function runsAsPlugin(): boolean {
  return !existsSync(cliBesideHooks());
}
