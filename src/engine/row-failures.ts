import type { SinkReport } from '../projections/projector.js';
import type { RowFailure } from './state-store.js';

/**
 * What a sink's report changes in a lane's failed rows, as records to commit: each row that
 * failed (keeping the seq and time it first failed), and `null` for each row among `keys` that
 * failed before and was made this time.
 */
export function failuresAfter(failed: ReadonlyMap<string, RowFailure>, keys: Iterable<string>, report: SinkReport, seq: number, now: string): Array<[string, RowFailure | null]> {
  const failures: Array<[string, RowFailure | null]> = [];
  const failedNow = new Set<string>();
  for (const { key, message } of report.failed) {
    failedNow.add(key);
    const before = failed.get(key);
    failures.push([key, { key, message, seq: before?.seq ?? seq, at: before?.at ?? now }]);
  }
  for (const key of keys) if (!failedNow.has(key) && failed.has(key)) failures.push([key, null]);
  return failures;
}

/** Applies committed failure records to a lane's failed rows in memory. */
export function recordFailures(failed: Map<string, RowFailure>, failures: ReadonlyArray<[string, RowFailure | null]>): void {
  for (const [key, failure] of failures) {
    if (failure) failed.set(key, failure);
    else failed.delete(key);
  }
}
