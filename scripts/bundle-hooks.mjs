// Bundles each hook into one self-contained file: a hook process pays for every module it loads,
// so it loads exactly one, with zod/mini and the redactor inlined. CommonJS, not ESM: Node's
// CommonJS loader starts a file measurably faster than its ESM loader. Used by build-hooks.mjs
// (dist/hooks, for `engram install`) and build-plugin.mjs (plugin/, for the plugin marketplace).
import { build } from 'esbuild';

export const hooks = [
  'session-start', 'user-prompt-submit', 'post-tool-use', 'post-tool-use-failure',
  'pre-compact', 'stop', 'subagent-stop', 'session-end',
];

/** `entryPoints`: source file → output name (without .cjs) under `outdir`. */
export async function bundleHooks({ entryPoints, outdir, buildId }) {
  const stamped = `export const BUILD_ID = ${JSON.stringify(buildId)};\n`;
  await build({
    entryPoints: Object.entries(entryPoints).map(([out, input]) => ({ in: input, out })),
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // ensure-worker.ts finds the CLI relative to itself; CommonJS has no import.meta.
    define: { 'import.meta.url': 'hookFileUrl' },
    banner: { js: "const hookFileUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [
      {
        name: 'build-id',
        setup(esbuild) {
          esbuild.onLoad({ filter: /[\\/]src[\\/]build-id\.ts$/ }, () => ({ contents: stamped, loader: 'ts' }));
        },
      },
    ],
  });
}
