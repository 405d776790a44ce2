// Bundles each hook into one self-contained file: a hook process pays for every module it
// loads, so it loads exactly one, with zod/mini and the redactor inlined.
import { build } from 'esbuild';

const hooks = [
  'session-start', 'user-prompt-submit', 'post-tool-use', 'post-tool-use-failure',
  'pre-compact', 'stop', 'subagent-stop', 'session-end',
];

await build({
  entryPoints: hooks.map((name) => `src/hooks/${name}.ts`),
  outdir: 'dist/hooks',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
