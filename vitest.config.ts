import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.js';
import { sharedModuleFiles } from './test/support/shared-module-files.js';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests spawn real hook and worker processes; two cores are shared by them all.
    maxWorkers: 2,
    // The built CLI run in a test's own process (test/support/temp-home.ts `cliHere`) is plain
    // JavaScript: Node loads it, as the bin does, instead of Vite transforming its few hundred files.
    server: { deps: { external: [/\/dist\//] } },
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: sharedModuleFiles } },
      { extends: true, test: { name: 'shared-modules', include: sharedModuleFiles, isolate: false } },
    ],
  },
});
