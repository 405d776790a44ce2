// Runs after tsc. Stamps this build's id into the tsc output, then bundles each hook into one
// self-contained file: a hook process pays for every module it loads, so it loads exactly one,
// with zod/mini and the redactor inlined. CommonJS, not ESM: Node's CommonJS loader starts a
// file measurably faster than its ESM loader.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const hooks = [
  'session-start', 'user-prompt-submit', 'post-tool-use', 'post-tool-use-failure',
  'pre-compact', 'stop', 'subagent-stop', 'session-end',
];

// One id for the whole build (src/build-id.ts says why and what it is made of): the worker, the
// CLI and every hook compare it to see who is newer.
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const buildId = `${version}+${Date.now()}`;
const stamped = `export const BUILD_ID = ${JSON.stringify(buildId)};\n`;
writeFileSync('dist/src/build-id.js', stamped);
rmSync('dist/src/build-id.js.map', { force: true });

rmSync('dist/hooks', { recursive: true, force: true });

await build({
  entryPoints: hooks.map((name) => `src/hooks/${name}.ts`),
  outdir: 'dist/hooks',
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

console.log(`build ${buildId}`);
