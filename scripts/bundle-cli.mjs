// Bundles the bin (issue 22): `engram` is what users run, and a command the worker answers
// (`engram log stats`) spent most of its start in Node's ESM loader and in building zod's schemas.
// Two builds:
// - dist/src/cli/engram.js, the front end (src/cli/front-end.ts): one file with every module it
//   imports inlined and no package at all (node: built-ins only), which asks the running worker
//   itself when it can (answer-from-worker.ts, through worker-client.ts's askWorker);
// - dist/src/cli/engram-main.js, the full CLI (main.ts), which the front end imports for anything
//   else: its source modules and zod inlined, the commands loaded on demand (esbuild's code
//   splitting makes each `import()` a chunk beside it), every other package (LevelDB, LanceDB,
//   the model, the MCP SDK) left to Node. engram-socket-protocol.js is the worker's answer
//   schema, which askWorker loads only for a line it cannot check by hand (response-by-hand.ts).
// The chunks sit in dist/src/cli so each `new URL('./main.js', import.meta.url)` the commands
// make still names the tsc build's main.js (what starts the worker) and `../../hooks/` still
// names dist/hooks.
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

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Smaller to parse; names kept, so an error's class and a stack still read.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/** What the front end loads only when it must, as the full build names it. */
const FROM_FULL_BUILD = { './main.js': './engram-main.js', './socket-protocol.js': './engram-socket-protocol.js' };

export async function bundleCli({ outdir, buildId }) {
  for (const file of readdirSync(outdir)) if (/^engram(-[\w-]+)?\.js$/.test(file)) rmSync(join(outdir, file));
  await build({
    ...common,
    entryPoints: { 'engram-main': join(root, 'src', 'cli', 'main.ts'), 'engram-socket-protocol': join(root, 'src', 'socket', 'socket-protocol.ts') },
    outdir,
    chunkNames: 'engram-[hash]',
    splitting: true,
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
  await build({
    ...common,
    entryPoints: [join(root, 'src', 'cli', 'front-end.ts')],
    outfile: join(outdir, 'engram.js'),
    plugins: [
      {
        name: 'front-end-alone',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('node:')) return undefined;
            return { errors: [{ text: `the bin's front end imports ${args.path} (from ${args.importer}): it loads no package; move that to main.ts's side` }] };
          });
          esbuild.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.kind !== 'dynamic-import') return undefined;
            const path = FROM_FULL_BUILD[args.path];
            if (path) return { path, external: true };
            return { errors: [{ text: `the bin's front end imports ${args.path} on demand: name it in FROM_FULL_BUILD (scripts/bundle-cli.mjs)` }] };
          });
        },
      },
      buildIdPlugin(buildId),
    ],
  });
}
