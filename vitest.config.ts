import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests spawn real hook and worker processes; two cores are shared by them all.
    maxWorkers: 2,
  },
});
