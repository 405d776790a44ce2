import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { EngramError } from '../errors.js';

const IMPORTED = 'i:';
const CURSOR = 'cursor';
const EMPTY = '';

/**
 * The importer's own state, in a LevelDB beside the log (`<home>/sync/state`): the stream seq it
 * has imported up to, and the ids of the events it brought in, so the forwarder never sends a
 * machine's events back as this one's. Ids are marked before the append that stores them and the
 * cursor moves after it, so a crash in between only makes the next worker import them again,
 * which the log's id index stores once.
 */
export class SyncStore {
  readonly #db: Level<string, string>;

  private constructor(db: Level<string, string>) {
    this.#db = db;
  }

  static async open(dir: string): Promise<SyncStore> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const db = new Level<string, string>(join(dir, 'state'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    try {
      await db.open();
    } catch (err) {
      throw new EngramError('SYNC_FAILED', `the sync state at ${dir} could not be opened`, { cause: err });
    }
    return new SyncStore(db);
  }

  /** Which of these ids came in from another machine. */
  async imported(ids: readonly string[]): Promise<boolean[]> {
    if (ids.length === 0) return [];
    const values = await this.#db.getMany(ids.map((id) => IMPORTED + id));
    return values.map((value) => value !== undefined);
  }

  async markImported(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db.batch(ids.map((id) => ({ type: 'put' as const, key: IMPORTED + id, value: EMPTY })), { sync: true });
  }

  /** The last stream seq imported (0: none yet). */
  async cursor(): Promise<number> {
    const value = await this.#db.get(CURSOR);
    return value === undefined ? 0 : Number(value);
  }

  async saveCursor(seq: number): Promise<void> {
    await this.#db.put(CURSOR, String(seq), { sync: true });
  }

  close(): Promise<void> {
    return this.#db.close();
  }
}
