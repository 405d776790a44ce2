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

  private constructor(db: Level<string, Uint8Array>) {
    this.#db = db;
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
    const log = new LevelEventLog(db);
    for await (const key of db.keys({ gte: EVENT, lt: EVENT_END, reverse: true, limit: 1 })) {
      log.#head = Number(key.slice(EVENT.length));
    }
    const stored = await db.get(META + MAX_ID_TIME);
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
    await batch.write();
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

  async getMeta(name: string): Promise<string | undefined> {
    const value = await this.#db.get(META + name);
    return value === undefined ? undefined : Buffer.from(value).toString('utf8');
  }

  async setMeta(name: string, value: string): Promise<void> {
    await this.#db.put(META + name, Buffer.from(value, 'utf8'));
  }

  async close(): Promise<void> {
    await this.#appends.onIdle();
    await this.#db.close();
  }
}
