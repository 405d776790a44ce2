import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import PQueue from 'p-queue';
import { EngramError } from '../errors.js';
import { envelopeSchema, type Envelope, type StoredEnvelope } from '../events/envelope.js';
import { redactEvents } from '../redaction/redact-envelope.js';
import type { AppendResult, EventLog, ReadOptions } from './event-log.js';
import { EventCodec, seqKey } from './event-codec.js';
import type { CheckOptions, DamagedRange, LogCheck } from './log-check.js';

// Three key spaces in one LevelDB, so an append (event + its id) is one atomic batch.
const EVENT = 'e:';
const EVENT_END = 'e;';
const ID = 'i:';
const META = 'm:';
const EMPTY = new Uint8Array(0);
const MAX_ID_TIME = 'maxIdTime';
const LOG_ID = 'logId';

export interface OpenOptions {
  /** Create the log when there is none. Default true; read-only commands pass false. */
  createIfMissing?: boolean;
  /**
   * Sync each append (and each metadata write) to disk before it resolves. Default true: ingest
   * removes a spool file once its append resolves, so an append that a power cut could still
   * undo would lose the event. One append is one ingest round, so the sync is paid per round,
   * not per event. Only the bench turns it off, to show its cost.
   */
  durable?: boolean;
}

/**
 * Event ids minted by engram (event-id.ts) start with 11 base-36 digits of wall-clock
 * microseconds, so comparing those prefixes compares mint times. Any other id is NOT_TIMED and
 * always looked up.
 */
const NOT_TIMED = '';
const ALL_TIMES = '~';
function idTime(id: string): string {
  if (id.length < 13 || id.charCodeAt(11) !== 45 /* - */) return NOT_TIMED;
  for (let i = 0; i < 11; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 122))) return NOT_TIMED;
  }
  return id.slice(0, 11);
}

/** The envelope's shape, checked without zod on the hot path; zod explains a failure. */
function looksLikeEnvelope(e: Envelope): boolean {
  return (
    typeof e === 'object' && e !== null &&
    typeof e.id === 'string' && e.id.length >= 8 && e.id.length <= 80 &&
    typeof e.type === 'string' && e.type.length > 0 && e.type.length <= 80 &&
    Number.isInteger(e.schemaVersion) && e.schemaVersion > 0 &&
    typeof e.ts === 'string' && ISO_TIME.test(e.ts) &&
    typeof e.session === 'string' && e.session.length <= 200 &&
    typeof e.project === 'string' && e.project.length <= 4096
  );
}
/** LevelDB's own words (`Corruption: bad block type`), without the wrappers around them. */
function leveldbMessage(err: unknown): string {
  let current: unknown = err;
  let message = '';
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The log on LevelDB: key `e:<seq, 16 digits>` → msgpack event, `i:<id>` → seq. LevelDB takes a
 * LOCK on open, so at most one process holds the log; that process is the single writer.
 */
export class LevelEventLog implements EventLog {
  readonly #db: Level<string, Uint8Array>;
  readonly #codec = new EventCodec();
  #head = 0;
  #id = '';
  // The largest time prefix of any stored id of engram's own format; see idTime.
  #maxIdTime = '';
  // One append at a time, so seqs stay gapless even if callers do not await each other.
  readonly #appends = new PQueue({ concurrency: 1 });
  readonly #sync: boolean;

  private constructor(db: Level<string, Uint8Array>, sync: boolean) {
    this.#db = db;
    this.#sync = sync;
  }

  /**
   * Opens the log, creating it unless told not to. EngramError LOG_LOCKED when another process
   * holds it, LOG_MISSING when there is none and `createIfMissing` is false.
   */
  static async open(location: string, options: OpenOptions = {}): Promise<LevelEventLog> {
    const createIfMissing = options.createIfMissing ?? true;
    // Checked first: LevelDB makes the directory even when told not to create the database.
    if (!createIfMissing && !existsSync(join(location, 'CURRENT'))) throw new EngramError('LOG_MISSING', `there is no log at ${location}`);
    const db = new Level<string, Uint8Array>(location, { keyEncoding: 'utf8', valueEncoding: 'view', createIfMissing });
    try {
      await db.open();
    } catch (cause) {
      const code = (cause as { cause?: { code?: string } }).cause?.code;
      if (code === 'LEVEL_LOCKED') {
        throw new EngramError('LOG_LOCKED', `the log at ${location} is held by another process`, { cause });
      }
      throw new EngramError('LOG_CORRUPT', `the log at ${location} does not open`, { cause });
    }
    const log = new LevelEventLog(db, options.durable ?? true);
    let stored: Uint8Array | undefined;
    try {
      for await (const key of db.keys({ gte: EVENT, lt: EVENT_END, reverse: true, limit: 1 })) {
        log.#head = Number(key.slice(EVENT.length));
      }
      stored = await db.get(META + MAX_ID_TIME);
    } catch (cause) {
      // Opened, but its newest events or its metadata cannot be read (a truncated table).
      await db.close().catch(() => undefined);
      throw new EngramError('LOG_CORRUPT', `the log at ${location} does not open: its head cannot be read`, { cause });
    }
    // A log that holds events but no record of their ids' times gets no shortcut: look up all.
    log.#maxIdTime = stored !== undefined ? Buffer.from(stored).toString('utf8') : log.#head > 0 ? ALL_TIMES : '';
    // A log made before logs had ids gets one now: its checkpoints (which carry none) are redone once.
    log.#id = (await log.getMeta(LOG_ID)) ?? '';
    if (log.#id === '') {
      log.#id = randomUUID();
      await log.setMeta(LOG_ID, log.#id);
    }
    return log;
  }

  get id(): string {
    return this.#id;
  }

  get head(): number {
    return this.#head;
  }

  append(events: readonly Envelope[]): Promise<AppendResult> {
    return this.#appends.add(() => this.#append(events));
  }

  async #append(events: readonly Envelope[]): Promise<AppendResult> {
    for (const event of events) {
      if (!looksLikeEnvelope(event)) {
        const checked = envelopeSchema.safeParse(event);
        throw new EngramError('EVENT_INVALID', `event ${String((event as { id?: unknown })?.id)} has no valid envelope`, {
          cause: checked.success ? undefined : checked.error,
        });
      }
    }
    // The one door for redaction: every event the log stores passes it, whoever made it.
    events = redactEvents(events);
    // Only ids that could already be here are looked up: one minted after the newest id stored
    // cannot be (see idTime). In steady use that is almost none, so dedupe costs no reads.
    const times = events.map((event) => idTime(event.id));
    const maybeKnown = events.filter((_, i) => !(times[i]! > this.#maxIdTime));
    const known = new Set<string>();
    const present = await this.has(maybeKnown.map((event) => event.id));
    maybeKnown.forEach((event, i) => present[i] && known.add(event.id));
    const appended: AppendResult['appended'] = [];
    const duplicates: string[] = [];
    // A chained batch: with two keys an event it writes in half the time of the array form.
    const batch = this.#db.batch();
    let seq = this.#head;
    let maxIdTime = this.#maxIdTime;
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (known.has(event.id)) {
        duplicates.push(event.id);
        continue;
      }
      known.add(event.id);
      seq++;
      batch.put(EVENT + seqKey(seq), this.#codec.encode(event));
      // The id index only answers "is it here?": its value is empty.
      batch.put(ID + event.id, EMPTY);
      const time = times[i]!;
      if (time !== NOT_TIMED && time > maxIdTime) maxIdTime = time;
      appended.push({ id: event.id, seq });
    }
    if (appended.length === 0) {
      await batch.close();
      return { appended, duplicates };
    }
    if (maxIdTime !== this.#maxIdTime) batch.put(META + MAX_ID_TIME, Buffer.from(maxIdTime));
    await batch.write({ sync: this.#sync });
    this.#head = seq;
    this.#maxIdTime = maxIdTime;
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

  /**
   * Reads the whole log (or from `options.from`) and says which seqs cannot be read. LevelDB
   * here cannot be asked to verify block checksums, but a damaged block fails to decompress or
   * parse when read, so reading every block once finds it; `decode` also decodes each event.
   */
  async check(options: CheckOptions = {}): Promise<LogCheck> {
    const check: LogCheck = { readable: 0, head: this.#head, damaged: [] };
    for await (const batch of this.readWhole(check.damaged, options)) check.readable += batch.length;
    if ((options.from ?? 1) <= 1) {
      try {
        for await (const _key of this.#db.keys({ gte: ID, lt: 'i;' })) void _key;
        for await (const _key of this.#db.keys({ gte: META, lt: 'm;' })) void _key;
      } catch (err) {
        check.indexDamage = leveldbMessage(err);
      }
    }
    return check;
  }

  /**
   * Every event that can be read, in seq order, passing over the damaged stretches, each added
   * to `damaged` as it is found. LevelDB's iterator passes over a block it cannot read and only
   * fails once it reaches its end, so every seq it skipped is looked up alone (a seq a loss left
   * unused is simply absent; one in a damaged block fails); after a failure, seqs are looked up
   * one by one until well past the last bad one, then read on.
   */
  async *readWhole(damaged: DamagedRange[], options: CheckOptions = {}): AsyncIterable<StoredEnvelope[]> {
    const decode = options.decode ?? false;
    const head = this.#head;
    let next = Math.max(1, options.from ?? 1);
    const bad = (seq: number, reason: string) => {
      const last = damaged.at(-1);
      if (last && last.to === seq - 1) last.to = seq;
      else damaged.push({ from: seq, to: seq, reason });
    };
    const take = (seq: number, value: Uint8Array): StoredEnvelope | undefined => {
      if (!decode) return { seq } as StoredEnvelope;
      try {
        const event = this.#codec.decode(seq, value);
        if (looksLikeEnvelope(event)) return event;
        bad(seq, 'not an event envelope');
      } catch (err) {
        bad(seq, leveldbMessage(err));
      }
      return undefined;
    };
    // Looks up next..to one by one (at most until `enough` readable follow the last bad one).
    const db = this.#db;
    const probe = async (to: number, enough = Number.POSITIVE_INFINITY): Promise<StoredEnvelope[]> => {
      const events: StoredEnvelope[] = [];
      let good = 0;
      for (; next <= to && good < enough; next++) {
        let value: Uint8Array | undefined;
        try {
          value = await db.get(EVENT + seqKey(next));
        } catch (err) {
          bad(next, leveldbMessage(err));
          good = 0;
          continue;
        }
        const event = value === undefined ? undefined : take(next, value);
        if (event) {
          events.push(event);
          good++;
        }
      }
      return events;
    };
    while (next <= head) {
      const iterator = this.#db.iterator({ gte: EVENT + seqKey(next), lt: EVENT_END });
      let failure: unknown;
      try {
        for (;;) {
          let entries: Array<[string, Uint8Array]>;
          try {
            entries = await iterator.nextv(500);
          } catch (err) {
            failure = err;
            break;
          }
          if (entries.length === 0) break;
          const events: StoredEnvelope[] = [];
          for (const [key, value] of entries) {
            const seq = Number(key.slice(EVENT.length));
            if (seq > next) events.push(...(await probe(seq - 1)));
            const event = take(seq, value);
            if (event) events.push(event);
            next = seq + 1;
          }
          yield events;
        }
      } finally {
        await iterator.close().catch(() => undefined);
      }
      if (failure === undefined) {
        // Seqs after the last one read, up to the head: absent, or in a block the iterator passed over.
        if (next <= head) yield await probe(head);
        return;
      }
      const after = await probe(head, 256);
      if (after.length > 0) yield after;
    }
  }

  async getMeta(name: string): Promise<string | undefined> {
    const value = await this.#db.get(META + name);
    return value === undefined ? undefined : Buffer.from(value).toString('utf8');
  }

  async setMeta(name: string, value: string): Promise<void> {
    await this.#db.put(META + name, Buffer.from(value, 'utf8'), { sync: this.#sync });
  }

  /**
   * Makes the next append start after `seq`, leaving the seqs between the head and it unused.
   * Only for a log found to have lost its tail (a projection's checkpoint is ahead of it): those
   * seqs were handed out once, and something outside the log may still name them, so they are
   * never handed out again. Nothing is written; the next append makes the new head durable.
   */
  skipTo(seq: number): void {
    if (seq > this.#head) this.#head = seq;
  }

  async close(): Promise<void> {
    await this.#appends.onIdle();
    await this.#db.close();
  }
}
