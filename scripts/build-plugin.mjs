// `npm run build:plugin [-- --out DIR]`: the plugin's committed bundles, plugin/hooks/*.cjs and
// plugin/prepare-runtime.cjs. Claude Code installs a plugin by cloning the repository and runs
// no build, so the hooks (Node built-ins only) must be in the clone; everything that needs
// node_modules is prepared by prepare-runtime.cjs on first use. The bundles must be
// reproducible, so that test/plugin-bundles.test.ts can tell a stale commit: their build id is
// the version with build time 0 (older than any `npm run build` of that version; a release
// orders plugin builds), never the clock.
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleHooks, bundleScript } from './bundle-hooks.mjs';

// From wherever it is run (the bundles test runs it with its output elsewhere).
const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = values.out ? resolve(values.out) : join(root, 'plugin');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const buildId = `${version}+0`;

rmSync(join(out, 'hooks'), { recursive: true, force: true });
rmSync(join(out, 'prepare-runtime.cjs'), { force: true });
rmSync(join(out, 'bin'), { recursive: true, force: true });
await bundleHooks({ dir: join(out, 'hooks'), buildId });
await bundleScript({ input: join(root, 'src', 'plugin', 'prepare-runtime.ts'), outfile: join(out, 'prepare-runtime.cjs'), buildId });
// In bin/, so that `../prepare-runtime.cjs` is found from it as from the hooks.
await bundleScript({ input: join(root, 'src', 'plugin', 'plugin-mcp-main.ts'), outfile: join(out, 'bin', 'mcp.cjs'), buildId });
console.log(`plugin build ${buildId} in ${out}`);
