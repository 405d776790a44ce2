// Bundles the CLI's front end (issue 22): `engram` is the bin users run, and a command the worker
// answers (`engram log stats`) spent most of its start in Node's ESM loader resolving ≈ 110
// modules, 77 of them zod's. One entry, dist/src/cli/engram.js, with every source module and zod
// inlined; the commands stay loaded on demand (esbuild's code splitting makes each `import()` a
// chunk beside the entry), and every other package (LevelDB, LanceDB, the model, the MCP SDK) is
// left to Node. The chunks sit in dist/src/cli so each `new URL('./main.js', import.meta.url)`
// the commands make still names the tsc build's main.js (what starts the worker) and
// `../../hooks/` still names dist/hooks.
//
// Tests and the worker run the tsc build (dist/src/cli/main.js); both carry the same build id.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildIdPlugin } from './bundle-hooks.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** zod is inlined: resolving its 77 files is what the front end paid for. Other packages are not. */
const INLINED = /^zod(\/|$)/;

export async function bundleCli({ outdir, buildId }) {
  for (const file of readdirSync(outdir)) if (/^engram(-[A-Z0-9]+)?\.js$/.test(file)) rmSync(join(outdir, file));
  await build({
    entryPoints: [join(root, 'src', 'cli', 'main.ts')],
    outdir,
    entryNames: 'engram',
    chunkNames: 'engram-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Smaller to parse; names kept, so an error's class and a stack still read.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-external-but-zod',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^[^./]/ }, (args) => (INLINED.test(args.path) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true }));
        },
      },
      buildIdPlugin(buildId),
    ],
  });
}
