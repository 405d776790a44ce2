#!/usr/bin/env node
// The ownership fuzz test (test/ownership-fuzz.test.ts) run longer, by hand, over several seeds:
//   node scripts/ownership-fuzz.mjs [SEEDS=10] [MS_PER_SEED=120000] [FIRST_SEED=1]
// Each seed runs in its own vitest process after `npm run build`, for MS_PER_SEED (ENGRAM_FUZZ_MS;
// the test alone runs a fixed 200 steps); prints one line a seed and
// exits 1 if any seed lost a byte a person wrote or a rebuild wrote different files.
import { spawnSync } from 'node:child_process';

const [seeds = '10', perSeed = '120000', first = '1'] = process.argv.slice(2);
let failed = 0;
for (let seed = Number(first); seed < Number(first) + Number(seeds); seed++) {
  const run = spawnSync('npx', ['vitest', 'run', 'test/ownership-fuzz.test.ts'], {
    env: { ...process.env, ENGRAM_FUZZ_SEED: String(seed), ENGRAM_FUZZ_MS: perSeed },
    encoding: 'utf8',
  });
  const out = `${run.stdout}${run.stderr}`;
  const line = /ownership fuzz: .*/.exec(out)?.[0];
  if (run.status === 0) console.log(line ?? `seed ${seed}: passed`);
  else {
    failed++;
    console.log(`seed ${seed}: FAILED\n${out.split('\n').filter((l) => /AssertionError|after \d+ steps|Error:/.test(l)).slice(0, 5).join('\n')}`);
  }
}
console.log(failed === 0 ? 'no byte lost, every rebuild the same' : `${failed} seed(s) failed`);
process.exit(failed === 0 ? 0 : 1);
