// Runs after tsc. Stamps this build's id into the tsc output, bundles each hook into dist/hooks
// (see bundle-hooks.mjs) and the bin's front end into dist/src/cli/engram.js (bundle-cli.mjs).
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { bundleCli } from './bundle-cli.mjs';
import { bundleHooks } from './bundle-hooks.mjs';

// One id for the whole build (src/build-id.ts says why and what it is made of): the worker, the
// CLI and every hook compare it to see who is newer.
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const buildId = `${version}+${Date.now()}`;
writeFileSync('dist/src/build-id.js', `export const BUILD_ID = ${JSON.stringify(buildId)};\n`);
rmSync('dist/src/build-id.js.map', { force: true });

rmSync('dist/hooks', { recursive: true, force: true });
await bundleHooks({ dir: 'dist/hooks', buildId });
await bundleCli({ outdir: 'dist/src/cli', buildId });

// The bin runs by its #! line wherever it is linked from (`ln -s`, a global install, a
// checkout's own `dist/`): tsc keeps the line but writes the file 0644.
for (const bin of ['dist/src/cli/engram.js', 'dist/src/cli/main.js']) {
  if (!readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')) throw new Error(`${bin} lost its #! line`);
  chmodSync(bin, 0o755);
}

console.log(`build ${buildId}`);
