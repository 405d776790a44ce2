// Bundles each hook into one self-contained file: a hook process pays for every module it loads,
// so it loads exactly one, with zod/mini and the redactor inlined. CommonJS, not ESM: Node's
// CommonJS loader starts a file measurably faster than its ESM loader. The bundle is
// `<name>.code.cjs`; the hook's command runs `<name>.cjs`, a small entry
// (src/hooks/hook-entry.ts; the prompt hook's is src/hooks/prompt-hook-entry.ts) that runs the
// bundle through V8's code cache (src/hooks/run-hook-code.ts says why). Used by build-hooks.mjs (dist/hooks, for `engram install`) and build-plugin.mjs
// (plugin/, for the plugin marketplace).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const hooks = [
  'session-start', 'user-prompt-submit', 'post-tool-use', 'post-tool-use-failure',
  'pre-compact', 'stop', 'subagent-stop', 'session-end',
];

const root = fileURLToPath(new URL('..', import.meta.url));

/** How every file here is bundled: one CommonJS file for Node 20, minified. */
const base = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/** The esbuild plugin that stamps `buildId` into src/build-id.ts (the hooks' bundles and the bin's). */
export function buildIdPlugin(buildId) {
  const stamped = `export const BUILD_ID = ${JSON.stringify(buildId)};\n`;
  return {
    name: 'build-id',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]src[\\/]build-id\.ts$/ }, () => ({ contents: stamped, loader: 'ts' }));
    },
  };
}

function common(buildId) {
  return {
    ...base,
    // plugin-layout.ts finds the CLI relative to itself; CommonJS has no import.meta. The URL
    // only when asked for: every hook runs this banner, few need the URL.
    define: { 'import.meta.url': 'hookFile.url', 'import.meta.dirname': '__dirname' },
    banner: { js: "const hookFile = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
    plugins: [buildIdPlugin(buildId)],
  };
}

/** Each hook of `names` as `<dir>/<name>.code.cjs` and its entry `<dir>/<name>.cjs`. */
export async function bundleHooks({ dir, buildId, names = hooks }) {
  await build({
    ...common(buildId),
    entryPoints: names.map((name) => ({ in: join(root, 'src', 'hooks', `${name}.ts`), out: `${name}.code` })),
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    // import() of a built-in becomes require(): the bundle runs in a vm.Script (run-hook-code.ts),
    // which has no loader for a real dynamic import.
    supported: { 'dynamic-import': false },
  });
  // The entries carry no build id: they only run the bundle beside them. The prompt hook's also
  // reads stdin and sends the recall question first (src/hooks/prompt-hook-entry.ts).
  const entryOf = async (file) =>
    (await build({ ...base, entryPoints: [join(root, 'src', 'hooks', file)], write: false, supported: { 'dynamic-import': false } })).outputFiles[0].contents;
  const entries = { plain: await entryOf('hook-entry.ts'), prompt: await entryOf('prompt-hook-entry.ts') };
  for (const name of names) writeFileSync(join(dir, `${name}.cjs`), name === 'user-prompt-submit' ? entries.prompt : entries.plain);
}

/** One script run by Node directly (not through the code cache), bundled as the hooks are. */
export async function bundleScript({ input, outfile, buildId }) {
  mkdirSync(dirname(outfile), { recursive: true });
  await build({ ...common(buildId), entryPoints: [input], outfile });
}
