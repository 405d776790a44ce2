// Runs after tsc. Stamps this build's id into the tsc output, then bundles each hook into one
// self-contained file: a hook process pays for every module it loads, so it loads exactly one,
// with zod/mini and the redactor inlined. CommonJS, not ESM: Node's CommonJS loader starts a
// file measurably faster than its ESM loader. The bundle is `<name>.code.cjs`; the hook's command
// runs `<name>.cjs`, a small entry (src/hooks/hook-entry.ts) that runs the bundle through V8's
// code cache (src/hooks/run-hook-code.ts says why).
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
  entryNames: '[name].code',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // import() of a built-in becomes require(): the bundle runs in a vm.Script (run-hook-code.ts),
  // which has no loader for a real dynamic import.
  supported: { 'dynamic-import': false },
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

const entry = await build({
  entryPoints: ['src/hooks/hook-entry.ts'],
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const name of hooks) writeFileSync(`dist/hooks/${name}.cjs`, entry.outputFiles[0].contents);

console.log(`build ${buildId}`);
