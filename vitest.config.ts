import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.js';
import { sharedModuleFiles } from './test/support/shared-module-files.js';

// Node reads the file NODE_EXTRA_CA_CERTS names at every start (Debian's whole bundle costs each
// `node` ≈ 46 ms of CPU here), and the suite starts thousands of node processes (hooks, workers,
// the CLI) of which none opens a TLS connection: tests talk to loopback servers only. npm, which
// may reach the registry, gets it back (test/package-install.test.ts). In effect before the test
// processes are forked, so they and everything they spawn inherit the environment without it.
if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
  process.env.ENGRAM_TEST_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

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
