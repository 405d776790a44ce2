import type { OwnershipLedger } from '../ownership/ownership-ledger.js';
import type { OwnershipRecord } from '../ownership/ownership-record.js';

/**
 * The ledger, with the records of the files one apply writes or removes read in one go and kept
 * current as they are put (only the file sink writes those files). Other keys go to the ledger.
 */
export class PrefetchedLedger implements OwnershipLedger {
  readonly #ledger: OwnershipLedger;
  readonly #records = new Map<string, OwnershipRecord | undefined>();

  constructor(ledger: OwnershipLedger, paths: readonly string[], records: ReadonlyArray<OwnershipRecord | undefined>) {
    this.#ledger = ledger;
    paths.forEach((path, i) => this.#records.set(path, records[i]));
  }

  async get(paths: readonly string[]): Promise<Array<OwnershipRecord | undefined>> {
    if (paths.every((path) => this.#records.has(path))) return paths.map((path) => this.#records.get(path));
    return this.#ledger.get(paths);
  }

  async put(entries: ReadonlyArray<readonly [string, OwnershipRecord | null]>): Promise<void> {
    if (entries.length === 0) return;
    const kept = entries.filter(([path]) => this.#records.has(path));
    // Forgotten first, so that after a failed write the next look reads the ledger itself.
    for (const [path] of kept) this.#records.delete(path);
    await this.#ledger.put(entries);
    for (const [path, record] of kept) this.#records.set(path, record ?? undefined);
  }
}
