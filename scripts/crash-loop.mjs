#!/usr/bin/env node
// The crash-test loop (test/crash-loop.test.ts) run longer, by hand, over several seeds:
//   node scripts/crash-loop.mjs [SEEDS=10] [KILLS_PER_SEED=30] [FIRST_SEED=1]
// Each seed runs in its own vitest process against the built dist (`npm run build` first): real
// hooks append while the worker is killed with SIGKILL at KILLS_PER_SEED seeded random points,
// then a drain and a fresh replay must write the same views and memory files, every event once.
// Prints one line a seed (kills, hooks, events, files compared, differences) and the totals;
// exits 1 if any seed failed.
import { spawnSync } from 'node:child_process';

const [seeds = '10', kills = '30', first = '1'] = process.argv.slice(2);
let failed = 0;
let totalKills = 0;
let totalWorking = 0;
let totalEvents = 0;
for (let seed = Number(first); seed < Number(first) + Number(seeds); seed++) {
  const run = spawnSync('npx', ['vitest', 'run', 'test/crash-loop.test.ts'], {
    env: { ...process.env, NO_COLOR: '1', ENGRAM_CRASH_LOOP: '1', ENGRAM_CRASH_SEED: String(seed), ENGRAM_CRASH_KILLS: kills },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = `${run.stdout}${run.stderr}`;
  const line = /crash loop: .*/.exec(out)?.[0];
  const counts = line && /(\d+) kills \((\d+) after its sinks wrote\), \d+ hooks, (\d+) events/.exec(line);
  if (counts) {
    totalKills += Number(counts[1]);
    totalWorking += Number(counts[2]);
    totalEvents += Number(counts[3]);
  }
  if (run.status === 0) console.log(line ?? `seed ${seed}: passed`);
  else {
    failed++;
    // What differed: the assertion and the lines of its diff (paths, keys, counts).
    const detail = out.split('\n').filter((l) => /AssertionError|Error:|timed out|^\s*[-+] |expected/.test(l)).slice(0, 30);
    console.log(`seed ${seed}: FAILED\n${detail.join('\n')}`);
  }
}
console.log(`${totalKills} kills (${totalWorking} after its sinks wrote), ${totalEvents} events, ${failed === 0 ? 'zero differences, every event stored once' : `${failed} seed(s) failed`}`);
process.exit(failed === 0 ? 0 : 1);
