import { Level } from 'level';
import { EngramError } from '../errors.js';
import { envelopeSchema, type Envelope, type StoredEnvelope } from '../events/envelope.js';
import type { AppendResult, EventLog, ReadOptions } from './event-log.js';
import { EventCodec, seqKey } from './event-codec.js';

// Three key spaces in one LevelDB, so an append (event + its id) is one atomic batch.
const EVENT = 'e:';
const EVENT_END = 'e;';
const ID = 'i:';
const META = 'm:';

/**
 * The log on LevelDB: key `e:<seq, 16 digits>` → msgpack event, `i:<id>` → seq. LevelDB takes a
 * LOCK on open, so at most one process holds the log; that process is the single writer.
 */
export class LevelEventLog implements EventLog {
  readonly #db: Level<string, Uint8Array>;
  readonly #codec = new EventCodec();
  #head = 0;
  // Appends are chained so seqs stay gapless even if callers do not await each other.
  #tail: Promise<unknown> = Promise.resolve();

  private constructor(db: Level<string, Uint8Array>) {
    this.#db = db;
  }

  /** Opens (creating) the log; EngramError LOG_LOCKED when another process holds it. */
  static async open(location: string): Promise<LevelEventLog> {
    const db = new Level<string, Uint8Array>(location, { keyEncoding: 'utf8', valueEncoding: 'view' });
    try {
      await db.open();
    } catch (cause) {
      const code = (cause as { cause?: { code?: string } }).cause?.code;
      if (code === 'LEVEL_LOCKED') {
        throw new EngramError('LOG_LOCKED', `the log at ${location} is held by another process`, { cause });
      }
      throw new EngramError('LOG_CORRUPT', `the log at ${location} does not open`, { cause });
    }
    const log = new LevelEventLog(db);
    for await (const key of db.keys({ gte: EVENT, lt: EVENT_END, reverse: true, limit: 1 })) {
      log.#head = Number(key.slice(EVENT.length));
    }
    return log;
  }

  get head(): number {
    return this.#head;
  }

  append(events: readonly Envelope[]): Promise<AppendResult> {
    const run = this.#tail.then(() => this.#append(events));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #append(events: readonly Envelope[]): Promise<AppendResult> {
    for (const event of events) {
      const checked = envelopeSchema.safeParse(event);
      if (!checked.success) {
        throw new EngramError('EVENT_INVALID', `event ${String(event?.id)} has no valid envelope`, { cause: checked.error });
      }
    }
    const present = await this.has(events.map((event) => event.id));
    const seen = new Set<string>();
    const appended: StoredEnvelope[] = [];
    const duplicates: string[] = [];
    const batch = this.#db.batch();
    let seq = this.#head;
    events.forEach((event, index) => {
      if (present[index] || seen.has(event.id)) {
        duplicates.push(event.id);
        return;
      }
      seen.add(event.id);
      seq++;
      const seqText = String(seq);
      batch.put(EVENT + seqKey(seq), this.#codec.encode(event));
      batch.put(ID + event.id, Buffer.from(seqText));
      appended.push({ ...event, seq });
    });
    if (appended.length > 0) await batch.write();
    else await batch.close();
    this.#head = seq;
    return { appended, duplicates };
  }

  async has(ids: readonly string[]): Promise<boolean[]> {
    if (ids.length === 0) return [];
    const values = await this.#db.getMany(ids.map((id) => ID + id));
    return values.map((value) => value !== undefined);
  }

  async *read(options: ReadOptions = {}): AsyncIterable<StoredEnvelope[]> {
    const from = Math.max(1, options.from ?? 1);
    const to = Math.min(options.to ?? this.#head, this.#head);
    if (from > to) return;
    const iterator = this.#db.iterator({ gte: EVENT + seqKey(from), lte: EVENT + seqKey(to) });
    try {
      const size = options.batchSize ?? 1000;
      for (;;) {
        const entries = await iterator.nextv(size);
        if (entries.length === 0) break;
        yield entries.map(([key, value]) => this.#codec.decode(Number(key.slice(EVENT.length)), value));
      }
    } finally {
      await iterator.close();
    }
  }

  async getMeta(name: string): Promise<string | undefined> {
    const value = await this.#db.get(META + name);
    return value === undefined ? undefined : Buffer.from(value).toString('utf8');
  }

  async setMeta(name: string, value: string): Promise<void> {
    await this.#db.put(META + name, Buffer.from(value, 'utf8'));
  }

  async close(): Promise<void> {
    await this.#tail;
    await this.#db.close();
  }
}
