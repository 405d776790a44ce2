// npm's `prepare`: runs after `npm install`/`npm ci` in a checkout and when npm installs engram
// from git (it clones, installs the dev dependencies, runs `prepare`, then packs). A clone has
// no dist/, so this builds it, and in the same tsc run typechecks and compiles the tests, which
// `npm test` then need not do again (scripts/build-when-stale.mjs). `npm pack` runs `prepack`
// first: the same build without the type check (with `isolatedModules` tsc emits the same files
// either way; `npm publish` checks the types in `prepublishOnly`), so nothing is built twice
// there. A checkout that was already built is left for `npm run build`.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync('dist/src/cli/main.js') || !existsSync('dist/hooks/session-start.cjs')) {
  const args = ['scripts/build-when-stale.mjs', ...(existsSync('test') ? ['--tests'] : [])];
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
