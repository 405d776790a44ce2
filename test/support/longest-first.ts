import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each of the suite's longest files took in a full run on the quiet machine (the lead's
 * `.ci/run` of 2 December, before this stop's cuts to ingest and the full disk). Only their order
 * matters: a figure gone stale reorders, it breaks nothing.
 */
const SECONDS: Record<string, number> = {
  'test/ingest.test.ts': 162,
  'test/package-install.test.ts': 96,
  'test/sync-cluster.test.ts': 52,
  'test/redaction-e2e.test.ts': 46,
  'test/sync.test.ts': 43,
  'test/worker-versions.test.ts': 42,
  'test/ownership-fuzz.test.ts': 40,
  'test/spool-full-disk.test.ts': 38,
  'test/crash-loop.test.ts': 34,
  'test/log-durability.test.ts': 33,
  'test/projection-runner.test.ts': 33,
  'test/plugin-clone.test.ts': 32,
  'test/recall-pipeline.test.ts': 31,
  'test/cli.test.ts': 28,
  'test/sync-faults.test.ts': 27,
  'test/ownership.test.ts': 25,
  'test/six-months.test.ts': 23,
  'test/distiller-e2e.test.ts': 19,
  'test/ownership-crash.test.ts': 18,
  'test/viewer.test.ts': 17,
  'test/socket-owner.test.ts': 17,
  'test/distill-answer.test.ts': 17,
  'test/run-llm.test.ts': 16,
  'test/spool-slow-hook.test.ts': 15,
  'test/hooks.test.ts': 13,
  'test/sync-team.test.ts': 12,
  'test/session-start-summary.test.ts': 11,
  'test/vectors-worker.test.ts': 11,
  'test/sync-idle.test.ts': 10,
  'test/held-for-user.test.ts': 10,
};

/**
 * Starts the longest files first. A clean clone (CI) has no vitest cache of durations, so the
 * base order (bigger files first) started a one-test minute such as sync-cluster near the end,
 * and one core idled while it ran alone. Files not listed follow in the base order (which uses
 * the cache where a run left one), those that share a process (shared-module-files.ts) last.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (spec: TestSpecification) => SECONDS[relative(spec.project.config.root, spec.moduleId)] ?? 0;
    // Then the isolated files, and last the quick ones that share a process (they fill the end).
    const shared = (spec: TestSpecification) => (spec.project.config.isolate ? 0 : 1);
    return base.map((spec, at) => ({ spec, at })).sort((a, b) => seconds(b.spec) - seconds(a.spec) || shared(a.spec) - shared(b.spec) || a.at - b.at).map(({ spec }) => spec);
  }
}
