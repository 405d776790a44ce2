import { Packr } from 'msgpackr';
import { ownershipRecordShape, type OwnershipRecord } from './ownership-record.js';

/**
 * Where engram keeps, per path it writes outside ENGRAM_HOME, what it wrote there. It lives in
 * the projection state store beside the lanes but outside their generations: starting a
 * projection over (a rebuild, a new projectorVersion, an unreadable checkpoint) forgets rows,
 * never whose a file is. Written at once, not with a lane's commit: the record follows the
 * file, whichever round wrote it.
 */
export interface OwnershipLedger {
  get(paths: readonly string[]): Promise<Array<OwnershipRecord | undefined>>;
  /** Puts (or, with null, forgets) records, all or nothing. */
  put(entries: ReadonlyArray<readonly [string, OwnershipRecord | null]>): Promise<void>;
}

/** The part of a LevelDB (sub)level the ledger uses. */
export interface LedgerLevel {
  getMany(keys: string[]): Promise<Array<Uint8Array | undefined>>;
  batch(operations: Array<{ type: 'put'; key: string; value: Uint8Array } | { type: 'del'; key: string }>): Promise<void>;
}

export class LevelOwnershipLedger implements OwnershipLedger {
  readonly #level: LedgerLevel;
  readonly #packr = new Packr();

  constructor(level: LedgerLevel) {
    this.#level = level;
  }

  async get(paths: readonly string[]): Promise<Array<OwnershipRecord | undefined>> {
    if (paths.length === 0) return [];
    const values = await this.#level.getMany([...paths]);
    return values.map((bytes) => {
      if (bytes === undefined) return undefined;
      let decoded: unknown;
      try {
        decoded = this.#packr.unpack(bytes);
      } catch {
        return undefined;
      }
      const parsed = ownershipRecordShape.safeParse(decoded);
      return parsed.success ? parsed.data : undefined;
    });
  }

  async put(entries: ReadonlyArray<readonly [string, OwnershipRecord | null]>): Promise<void> {
    if (entries.length === 0) return;
    await this.#level.batch(entries.map(([key, record]) => (record === null ? { type: 'del' as const, key } : { type: 'put' as const, key, value: this.#packr.pack(record) })));
  }
}

/** A ledger in memory: for a runner without a store (a read-only look) and for pure tests. */
export class MemoryOwnershipLedger implements OwnershipLedger {
  readonly records = new Map<string, OwnershipRecord>();

  async get(paths: readonly string[]): Promise<Array<OwnershipRecord | undefined>> {
    return paths.map((path) => this.records.get(path));
  }

  async put(entries: ReadonlyArray<readonly [string, OwnershipRecord | null]>): Promise<void> {
    for (const [path, record] of entries) {
      if (record === null) this.records.delete(path);
      else this.records.set(path, record);
    }
  }
}
