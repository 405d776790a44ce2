import type { OwnershipLedger } from '../ownership/ownership-ledger.js';
import type { SinkContext } from '../projections/projector.js';
import type { LaneStore } from './state-store.js';

/**
 * What a sink may ask while it writes a round: whose a file is, the rows under a prefix as they
 * stand with the round's changes over the committed ones (in key order, read lazily), and the
 * records of what it wrote.
 */
export function sinkContext(
  lane: { readonly store: LaneStore | null; readonly written: { outputs: Set<string> } | undefined },
  ledger: OwnershipLedger,
  changed: ReadonlyMap<string, unknown>,
): SinkContext {
  const store = lane.store!;
  // The round's changed keys in order, made on the first scan: each scan then finds its prefix's
  // keys by binary search instead of walking every change (a rebuild's round changes them all,
  // and renders one MEMORY.md per directory). JavaScript's order is LevelDB's but for a code
  // point above U+FFFF against one in U+E000–U+FFFF: such keys may come out of order, never
  // twice or not at all.
  let sorted: string[] | undefined;
  return {
    ledger,
    scan: async function* (prefix) {
      sorted ??= [...changed.keys()].sort();
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (sorted[mid]! < prefix) low = mid + 1;
        else high = mid;
      }
      // The committed rows and the round's, merged in key order, read only as far as the reader goes.
      let next = low;
      const changedFirst = function* (before: string | undefined) {
        for (; next < sorted!.length && sorted![next]!.startsWith(prefix) && (before === undefined || sorted![next]! < before); next++) {
          const row = changed.get(sorted![next]!);
          if (row !== null) yield [sorted![next]!, row] as [string, unknown];
        }
      };
      for await (const [key, row] of store.entries(prefix)) {
        yield* changedFirst(key);
        if (!changed.has(key)) yield [key, row];
      }
      yield* changedFirst(undefined);
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

