import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { describeError, EngramError } from '../errors.js';
import type { EventCatalog } from '../events/catalog.js';
import { envelopeSchema, type Envelope } from '../events/envelope.js';
import { describeIssues } from '../events/describe-issues.js';
import type { EventLog } from '../log/event-log.js';
import { redactText } from '../redaction/redact.js';
import { redactEnvelope } from '../redaction/redact-envelope.js';
import { abortableSleep } from './abortable-sleep.js';
import { shareableIn } from './shareable-events.js';
import type { SyncLink } from './sync-link.js';
import { SYNC_STREAM } from './sync-settings.js';
import { received } from './team-received.js';
import { teamSubject } from './sync-subject.js';

/** Messages taken per fetch: one log append and one cursor write each. */
const FETCH_BATCH = 500;
/** How long one fetch waits for messages before asking again; a syncTimeoutMs shorter shortens it, to the client's least (1 s). */
const FETCH_EXPIRES_MS = 2000;
const LEAST_FETCH_EXPIRES_MS = 1000;
/** The importer's first wait after a failure, doubling up to one syncTimeoutMs (5 s by default). */
const FIRST_RETRY_MS = 250;

export interface SyncImporterOptions {
  link: SyncLink;
  log: EventLog;
  catalog: EventCatalog;
  /** Called after an append of imported events, so the worker folds them. */
  onImported(): void;
}

/**
 * The importer: reads the scope's subject from the stream, in the stream's order, from the seq
 * after the last it imported, and appends other machines' events to the local log through its
 * normal append (the one redaction door, the id index that stores an id once). Every message is
 * outside input: it is checked as an envelope and then by its type's schema (the catalog), and a
 * message that fails either is kept in `<home>/sync/rejected/` with the reason, never appended.
 * Ids are marked imported before the append (so the forwarder never sends them back) and the
 * cursor saved after it (so a crash imports them again, stored once).
 */
export class SyncImporter {
  readonly #options: SyncImporterOptions;
  readonly #abort = new AbortController();
  #running: Promise<void> | undefined;

  constructor(options: SyncImporterOptions) {
    this.#options = options;
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#abort.abort(new Error('the worker is stopping'));
    await this.#running;
  }

  async #loop(): Promise<void> {
    const { link } = this.#options;
    const signal = this.#abort.signal;
    let backoff = FIRST_RETRY_MS;
    let failed = false;
    while (!signal.aborted && !link.closed) {
      try {
        // The stream answered (its info, a consumer made): the waits start over, and a forwarder backing off goes again.
        await this.#follow(signal, () => {
          if (failed) link.noteFollowingAgain();
          failed = false;
          backoff = FIRST_RETRY_MS;
        });
      } catch (err) {
        if (signal.aborted || link.closed) return;
        failed = true;
        link.noteError(err);
        await abortableSleep(backoff, signal);
        backoff = Math.min(backoff * 2, link.settings.timeoutMs);
      }
    }
  }

  /** Follows the stream from the cursor until something fails (the caller starts again). */
  async #follow(signal: AbortSignal, following: () => void): Promise<void> {
    const { link } = this.#options;
    const { js, jsm } = await link.connection(signal, 60_000);
    const cursor = await link.store.cursor();
    const info = await jsm.streams.info(SYNC_STREAM);
    if (cursor > 0 && info.state.first_seq > cursor + 1) {
      link.noteMissed(`the stream no longer holds seqs ${cursor + 1}–${info.state.first_seq - 1} (past its retention): events your other machines sent then may be missing here; this machine's own are all in its log`);
    }
    const consumer = await js.consumers.get(SYNC_STREAM, {
      // One subject as a string: nats-server 2.9 (Debian's) takes no list.
      filter_subjects: link.subject,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: cursor + 1,
    });
    following();
    // A fetch not over two timeouts (syncTimeoutMs) after it expired is stalled: its consumer lived
    // on a cluster node that died, and the client's ordered consumer asks after it forever
    // (test/sync-cluster.test.ts).
    const expires = Math.max(LEAST_FETCH_EXPIRES_MS, Math.min(FETCH_EXPIRES_MS, link.settings.timeoutMs));
    const stalledMs = expires + 2 * link.settings.timeoutMs;
    while (!signal.aborted && !link.closed) {
      const messages = await consumer.fetch({ max_messages: FETCH_BATCH, expires });
      const stop = () => void messages.close();
      signal.addEventListener('abort', stop, { once: true });
      let stalled = false;
      const watchdog = setTimeout(() => {
        stalled = true;
        stop();
      }, stalledMs);
      const batch: JsMsg[] = [];
      try {
        for await (const message of messages) batch.push(message);
      } finally {
        clearTimeout(watchdog);
        signal.removeEventListener('abort', stop);
      }
      // Following again makes a new consumer, on a node that runs, from the cursor: what this fetch got comes again.
      if (stalled && !signal.aborted) throw new EngramError('SYNC_FAILED', `the stream's consumer did not answer for ${stalledMs / 1000} s (its server gone?); following again from the last stream seq imported`);
      if (batch.length > 0 && !signal.aborted) await this.#take(batch);
    }
  }

  async #take(batch: readonly JsMsg[]): Promise<void> {
    const { link, log } = this.#options;
    const events: Envelope[] = [];
    const subjects: string[] = [];
    for (const message of batch) {
      const event = this.#check(message);
      if (event) {
        events.push(event);
        subjects.push(message.subject);
      }
    }
    // What this machine already holds (its own events coming back, a batch seen before a crash) is skipped.
    const present = await log.has(events.map((event) => event.id));
    // Every field redacted here, whatever the event says of itself: the log's door passes over a
    // hook event stamped with this build (its own hook redacted it), and another machine's stamp
    // is only a claim.
    const fresh = events.filter((_, i) => !present[i]).map((event) => redactEnvelope(link.settings.scope === 'team' ? received(event, link) : event, { always: true }));
    await link.store.markImported(fresh.map((event) => event.id));
    const { appended } = fresh.length > 0 ? await log.append(fresh) : { appended: [] };
    const last = batch.at(-1)!;
    await link.store.saveCursor(last.seq);
    // Counted by the subject each came on, for `engram sync status`.
    subjects.forEach((subject, i) => !present[i] && link.noteReceived(subject, 1));
    link.noteImported(appended.length, last.seq, last.info.pending, log.head);
    if (appended.length > 0) this.#options.onImported();
  }

  /** The message as an event this machine may append, or undefined (and kept aside, with why). */
  #check(message: JsMsg): Envelope | undefined {
    const { link, catalog } = this.#options;
    let raw: unknown;
    try {
      raw = JSON.parse(message.string());
    } catch {
      return this.#reject(message, 'not JSON');
    }
    const parsed = envelopeSchema.safeParse(raw);
    if (!parsed.success) return this.#reject(message, `not an event envelope: ${describeIssues(parsed.error)}`);
    const event = parsed.data;
    if (!shareableIn(link.settings.scope, event.type)) return this.#reject(message, `${event.type} is not shared in the ${link.settings.scope} scope`);
    try {
      const read = catalog.read(event);
      // A team message must be about the project whose subject it came on, and that project must be opted in here.
      if (link.settings.scope === 'team') {
        const projectId = (read.data as { projectId: string }).projectId;
        const project = link.settings.teams.find((team) => team.id === projectId);
        if (!project || teamSubject(project) !== message.subject) return this.#reject(message, 'a memory of a project not opted in here, or sent on another project\'s subject');
        // Only what the schema knows goes on: a field a teammate's engram added stays out.
        return read;
      }
    } catch (err) {
      // Also a type or schemaVersion newer than this build reads: upgrading engram and moving the
      // cursor back (docs/team-sync.md) brings these in.
      return this.#reject(message, describeError(err));
    }
    return event;
  }

  #reject(message: JsMsg, reason: string): undefined {
    const { link } = this.#options;
    link.noteRejected();
    try {
      const dir = join(link.settings.dir, 'rejected');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, `${message.seq}.json`), `${JSON.stringify({ streamSeq: message.seq, subject: message.subject, reason, body: redactText(message.string().slice(0, 100_000)) }, null, 2)}\n`, { mode: 0o600 });
    } catch (err) {
      link.noteError(err);
    }
    return undefined;
  }
}
