#!/usr/bin/env node
import { isBrokenPipe } from './is-broken-pipe.js';
import { answerFromWorker } from './answer-from-worker.js';

// The bin users run (package.json `bin`, bundled by scripts/bundle-cli.mjs): a command the
// running worker answers is asked here, loading node:net and a few small modules; anything else
// loads the full CLI (main.ts) and runs there (issue 22: start ≤ 1.5× `node -e 0`).
const argv = process.argv.slice(2);
const quietPipe = (err: Error) => {
  if (!isBrokenPipe(err)) throw err;
};
process.stdout.on('error', quietPipe);
const code = await answerFromWorker(argv, process.env, { stdout: process.stdout, stderr: process.stderr });
if (code !== undefined) process.exitCode = code;
else {
  process.stdout.off('error', quietPipe);
  await (await import('./main.js')).runAsBin(argv);
}
