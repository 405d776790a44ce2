// Bundles each hook into one self-contained file: a hook process pays for every module it
// loads, so it loads exactly one, with zod/mini and the redactor inlined. CommonJS, not ESM:
// Node's CommonJS loader starts a file measurably faster than its ESM loader.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const hooks = [
  'session-start', 'user-prompt-submit', 'post-tool-use', 'post-tool-use-failure',
  'pre-compact', 'stop', 'subagent-stop', 'session-end',
];

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
});
