import { connect, nanos, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, JetStreamApiCodes, JetStreamApiError, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { writeFileAtomic } from '../atomic-write.js';
import { describeError, EngramError } from '../errors.js';
import { syncAuthenticator } from './sync-authenticator.js';
import { SYNC_STREAM, type SyncSettings } from './sync-settings.js';
import { syncStatusFile, type SyncStatus } from './sync-status.js';
import { SyncStore } from './sync-store.js';
import { abortableSleep } from './abortable-sleep.js';
import { syncSubject, teamSubject } from './sync-subject.js';

/** JetStream's error code for a stream name already taken (not in the client's list of codes). */
const STREAM_NAME_IN_USE = 10058;

/** A connection to the stream, with its clients. */
export interface SyncConnection {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

export interface SyncLinkOptions {
  /** The worker's log line (worker.log); never given a credential. */
  log(line: string): void;
  /** How long a publish waits for its ack. Default the settings' timeoutMs (syncTimeoutMs). */
  ackTimeoutMs?: number;
  /** How long the forwarder waits for a connection before its round fails. Default 0: one attempt, then it backs off. */
  connectWaitMs?: number;
  /**
   * How long the stream dedupes a `Nats-Msg-Id` (set when this link creates the stream). Default
   * one hour: longer than any outage a resend follows, so a resend stores nothing twice.
   */
  duplicateWindowMs?: number;
}

/**
 * The worker's one connection to the sync stream, the import state, and the status everyone
 * reads. The forwarder and the importer share it; it connects on first use, keeps reconnecting
 * while the worker lives, and makes the stream when the server has none.
 */
export class SyncLink {
  readonly settings: SyncSettings;
  readonly subject: string;
  readonly options: SyncLinkOptions;
  #store: SyncStore | undefined;
  #connecting: Promise<SyncConnection> | undefined;
  #connection: SyncConnection | undefined;
  #closed = false;
  #status: SyncStatus;
  #statusTimer: NodeJS.Timeout | undefined;
  #lastLoggedError = '';
  #connects = 0;

  constructor(settings: SyncSettings, options: SyncLinkOptions) {
    this.settings = settings;
    // The team scope follows its one project's subject, or every team subject when several are opted in (the importer keeps only theirs).
    this.subject = settings.scope === 'personal' ? syncSubject(settings) : settings.teams.length === 1 ? teamSubject(settings.teams[0]!) : 'engram.team.>';
    this.options = options;
    this.#status = {
      scope: settings.scope, subject: this.subject, servers: settings.servers, pid: process.pid, updatedAt: new Date().toISOString(),
      connected: false, localHead: 0, forwardedTo: 0, published: 0, importedTo: 0, imported: 0, rejected: 0, tooLarge: 0,
      ...(settings.scope === 'team' ? { teams: settings.teams.map((team) => ({ id: team.id, subject: teamSubject(team), dir: team.dir })) } : {}),
    };
  }

  /** Opens the import state: after the worker holds the log, so one worker owns both. */
  async open(): Promise<void> {
    this.#store = await SyncStore.open(this.settings.dir);
    this.#status.importedTo = await this.#store.cursor();
    this.#writeStatus();
  }

  get store(): SyncStore {
    if (!this.#store) throw new EngramError('SYNC_FAILED', 'the sync state is not open yet');
    return this.#store;
  }

  get opened(): boolean {
    return this.#store !== undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * How many times the server was found answering again: a connection made or made again, or the
   * importer following the stream again after a failure (a cluster that elected the stream's new
   * leader, over the same connection). A forwarder backing off tries again once it grows.
   */
  get connects(): number {
    return this.#connects;
  }

  /** The importer follows the stream again after a failure: JetStream answers for it. */
  noteFollowingAgain(): void {
    this.#connects++;
  }

  /**
   * The connection, made on first use. Waits for it up to `waitMs` (default: connectWaitMs),
   * then throws SYNC_FAILED; an aborted `signal` gives up at once.
   */
  async connection(signal?: AbortSignal, waitMs = this.options.connectWaitMs ?? 10_000): Promise<SyncConnection> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (this.#closed) throw new EngramError('SYNC_FAILED', 'the sync link is closed');
      signal?.throwIfAborted();
      try {
        if (this.#connection && !this.#connection.nc.isClosed()) return this.#connection;
        this.#connecting ??= this.#connect().finally(() => (this.#connecting = undefined));
        return (this.#connection = await this.#connecting);
      } catch (err) {
        this.noteError(err);
        if (Date.now() >= deadline) throw new EngramError('SYNC_FAILED', `cannot reach the sync server (${this.settings.servers.join(', ')})`, { cause: err });
        await abortableSleep(Math.min(1000, Math.max(0, deadline - Date.now())), signal);
      }
    }
  }

  async #connect(): Promise<SyncConnection> {
    const { settings } = this;
    const options: NodeConnectionOptions = {
      servers: settings.servers,
      name: `engram ${process.pid}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      // A handshake is waited on as a silent server is: never longer than syncTimeoutMs (2 s by default, as before).
      timeout: Math.min(2000, settings.timeoutMs),
      // Two pings unanswered and the connection is given up and made again (syncTimeoutMs).
      pingInterval: settings.timeoutMs,
      maxPingOut: 2,
      ...(settings.credentialsFile ? { authenticator: syncAuthenticator(settings.credentialsFile) } : {}),
      ...(settings.tls ? { tls: settings.tlsCa ? { caFile: settings.tlsCa } : {} } : {}),
    };
    const nc = await connect(options);
    try {
      // JetStream's API (stream info, consumer made again) waits one syncTimeoutMs (5 s by default, as before).
      const jsm = await jetstreamManager(nc, { timeout: settings.timeoutMs });
      await this.#ensureStream(jsm);
      this.#status.connected = true;
      this.#connects++;
      this.#watch(nc);
      this.options.log(`sync: connected to ${nc.getServer()}, subject ${this.subject}`);
      this.#writeStatus();
      return { nc, js: jetstream(nc, { timeout: this.options.ackTimeoutMs ?? settings.timeoutMs }), jsm };
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw err;
    }
  }

  async #ensureStream(jsm: JetStreamManager): Promise<void> {
    try {
      await jsm.streams.info(SYNC_STREAM);
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err;
      // Made by whichever machine comes first (syncReplicas copies); an operator may make it beforehand (limits).
      await jsm.streams.add({
        name: SYNC_STREAM,
        subjects: ['engram.>'],
        storage: StorageType.File,
        num_replicas: this.settings.replicas,
        duplicate_window: nanos(this.options.duplicateWindowMs ?? 3_600_000),
      }).catch((addErr: unknown) => {
        // Another machine made it meanwhile.
        if (!(addErr instanceof JetStreamApiError && addErr.code === STREAM_NAME_IN_USE)) throw addErr;
      });
    }
  }

  #watch(nc: NatsConnection): void {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') this.#setConnected(false);
        else if (s.type === 'reconnect') {
          this.#connects++;
          this.#setConnected(true);
        }
      }
    })().catch(() => undefined);
    void nc.closed().then(() => this.#setConnected(false));
  }

  #setConnected(connected: boolean): void {
    if (this.#status.connected === connected) return;
    this.#status.connected = connected;
    this.options.log(`sync: ${connected ? 'reconnected' : 'disconnected'}`);
    this.#scheduleStatus();
  }

  noteAck(seq: number, streamSeq: number, subject: string): void {
    this.#status.forwardedTo = Math.max(this.#status.forwardedTo, seq);
    this.#status.lastAck = { seq, streamSeq, at: new Date().toISOString() };
    this.#status.published++;
    this.#count(subject, 'sent');
    this.#scheduleStatus();
  }

  /** The forwarder finished a round: everything up to `seq` is acked (or was not to be shared). */
  noteForwarded(seq: number, localHead: number): void {
    this.#status.forwardedTo = Math.max(this.#status.forwardedTo, seq);
    this.#status.localHead = localHead;
    this.#scheduleStatus();
  }

  /** Per subject: what this run sent and took in, for `engram sync status`. */
  #count(subject: string, what: 'sent' | 'received', n = 1): void {
    const counts = (this.#status.bySubject ??= {});
    const entry = (counts[subject] ??= { sent: 0, received: 0 });
    entry[what] += n;
  }

  noteReceived(subject: string, n: number): void {
    this.#count(subject, 'received', n);
    this.#scheduleStatus();
  }

  noteImported(count: number, cursor: number, pending: number | undefined, localHead: number): void {
    this.#status.imported += count;
    this.#status.importedTo = cursor;
    this.#status.pending = pending;
    this.#status.localHead = localHead;
    this.#scheduleStatus();
  }

  noteRejected(): void {
    this.#status.rejected++;
    this.#scheduleStatus();
  }

  noteTooLarge(id: string, bytes: number): void {
    this.#status.tooLarge++;
    this.options.log(`sync: event ${id} is ${bytes} bytes, more than the server takes; not shared`);
    this.#scheduleStatus();
  }

  noteMissed(text: string): void {
    this.#status.missed = text;
    this.options.log(`sync: ${text}`);
    this.#scheduleStatus();
  }

  /** The latest failure, for status; logged once until it changes. */
  noteError(err: unknown): void {
    const message = describeError(err);
    this.#status.lastError = { message, at: new Date().toISOString() };
    if (message !== this.#lastLoggedError) this.options.log(`sync: ${message}`);
    this.#lastLoggedError = message;
    this.#scheduleStatus();
  }

  status(): SyncStatus {
    return { ...this.#status };
  }

  // At most one write a quarter second: a catch-up of thousands of events writes a few files.
  #scheduleStatus(): void {
    if (this.#statusTimer || this.#closed) return;
    this.#statusTimer = setTimeout(() => {
      this.#statusTimer = undefined;
      this.#writeStatus();
    }, 250);
  }

  #writeStatus(): void {
    try {
      this.#status.updatedAt = new Date().toISOString();
      // Not synced to disk: up to four writes a second on the worker's thread, of a file that is
      // only a report (checked on read, torn or lost: none), written again by the next worker.
      writeFileAtomic(syncStatusFile(this.settings.dir), `${JSON.stringify(this.#status, null, 2)}\n`, { durable: false });
    } catch {
      // a status that cannot be written must not stop the sync
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#statusTimer) clearTimeout(this.#statusTimer);
    const connection = this.#connection ?? (await this.#connecting?.catch(() => undefined));
    await connection?.nc.close().catch(() => undefined);
    this.#status.connected = false;
    this.#writeStatus();
    await this.#store?.close();
  }
}
