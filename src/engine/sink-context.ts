import type { OwnershipLedger } from '../ownership/ownership-ledger.js';
import type { SinkContext } from '../projections/projector.js';
import type { LaneStore } from './state-store.js';

/**
 * What a sink may ask while it writes a round: whose a file is, the rows under a prefix as they
 * stand with the round's changes over the committed ones, and the records of what it wrote.
 */
export function sinkContext(
  lane: { readonly store: LaneStore | null; readonly written: { outputs: Set<string> } | undefined },
  ledger: OwnershipLedger,
  changed: ReadonlyMap<string, unknown>,
): SinkContext {
  const store = lane.store!;
  // The round's changed keys in order, made on the first scan: each scan then finds its prefix's
  // keys by binary search instead of walking every change (a rebuild's round changes them all,
  // and renders one MEMORY.md per directory).
  let sorted: string[] | undefined;
  return {
    ledger,
    scan: async function* (prefix) {
      for await (const [key, row] of store.entries(prefix)) {
        if (!changed.has(key)) yield [key, row];
      }
      sorted ??= [...changed.keys()].sort();
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (sorted[mid]! < prefix) low = mid + 1;
        else high = mid;
      }
      for (let i = low; i < sorted.length && sorted[i]!.startsWith(prefix); i++) {
        const row = changed.get(sorted[i]!);
        if (row !== null) yield [sorted[i]!, row];
      }
    },
    outputs: async (paths) => {
      const written = lane.written?.outputs;
      if (!written) return store.outputs(paths);
      // Only paths this lane wrote since its store was empty can have a record.
      const asked = paths.filter((path) => written.has(path));
      const found = new Map((await store.outputs(asked)).map((record, i) => [asked[i]!, record]));
      return paths.map((path) => found.get(path));
    },
  };
}
