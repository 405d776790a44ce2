import { headers } from '@nats-io/transport-node';
import type { PubAck } from '@nats-io/jetstream';
import type { Envelope } from '../events/envelope.js';
import type { Reactor, ReactorContext } from '../engine/reactor.js';
import { assertShareable, shareableIn } from './shareable-events.js';
import type { SyncLink } from './sync-link.js';
import { teamSubject } from './sync-subject.js';

/** Publishes in flight at once, their acks awaited in order. */
export const FORWARD_WINDOW = 256;
/** How long the forwarder waits after a failed round, doubling up to MAX_BACKOFF_MS; a round that succeeds starts over. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** Room the server's max_payload must leave beyond the event for the headers. */
const HEADER_ROOM = 1024;

type Sent = { seq: number; subject: string; ack?: PubAck; error?: unknown };

/**
 * The subject an event of this machine's log goes out on, or undefined when it stays here. In
 * the team scope, a MemoryShared of a project opted in goes to that project's subject; nothing
 * else goes anywhere.
 */
function subjectFor(link: SyncLink, event: Pick<Envelope, 'type' | 'data'>): string | undefined {
  const { scope, teams } = link.settings;
  if (!shareableIn(scope, event.type)) return undefined;
  if (scope === 'personal') return link.subject;
  const projectId = (event.data as { projectId?: unknown }).projectId;
  const project = teams.find((team) => team.id === projectId);
  return project ? teamSubject(project) : undefined;
}

/**
 * The forwarder: a reactor that publishes this machine's shareable events, in log order, to the
 * scope's subject, each with `Nats-Msg-Id` = its event id. Events are read back from the log, so
 * what leaves is what the log's one redaction door let in. Up to FORWARD_WINDOW publishes are
 * in flight; their acks are taken in order, and the first that fails fails the round, so the
 * runner keeps the cursor before it and the next round sends again from there, in order (the
 * stream drops, by id, what it already has). The cursor is saved by the runner only after the
 * round returns: after every ack. Events another machine sent (SyncStore.imported) never go back.
 */
export function syncForwarder(link: SyncLink): Reactor {
  // After a failed round the next waits, longer each time up to MAX_BACKOFF_MS: a server away
  // costs a connection attempt now and then, not a lane kept busy (which held the worker awake).
  // The server found answering again meanwhile (a connection made again, or the importer following
  // the stream again once a cluster elected its new leader) ends the wait: what it missed goes now.
  let delay = FIRST_BACKOFF_MS;
  let retryAt = 0;
  let connectsAtFailure = 0;
  return {
    name: 'sync-forwarder',
    idleWhileBusy: true,
    holdsOff: () => Date.now() < retryAt && link.connects === connectsAtFailure,
    async react(ctx) {
      if (ctx.from > ctx.to) return [];
      try {
        await forward(ctx);
      } catch (err) {
        connectsAtFailure = link.connects;
        retryAt = Date.now() + delay;
        delay = Math.min(delay * 2, MAX_BACKOFF_MS);
        throw err;
      }
      delay = FIRST_BACKOFF_MS;
      retryAt = 0;
      return [];
    },
  };

  async function forward(ctx: ReactorContext): Promise<void> {
    // One connection attempt (the link keeps reconnecting on its own): no round waits for a server that is away.
    const { js, nc } = await link.connection(ctx.signal, link.options.connectWaitMs ?? 0);
    const maxPayload = (nc.info?.max_payload ?? 1024 * 1024) - HEADER_ROOM;
    const encoder = new TextEncoder();
    const window: Array<Promise<Sent>> = [];
    const settle = async (): Promise<void> => {
      const sent = await window.shift()!;
      if (sent.error !== undefined) throw sent.error;
      link.noteAck(sent.seq, sent.ack!.seq, sent.subject);
    };
    try {
      for await (const batch of ctx.log.read({ from: ctx.from, to: ctx.to, batchSize: FORWARD_WINDOW })) {
        ctx.signal.throwIfAborted();
        const imported = await link.store.imported(batch.map((event) => event.id));
        for (let i = 0; i < batch.length; i++) {
          const { seq, ...event } = batch[i]!;
          const subject = imported[i] ? undefined : subjectFor(link, event);
          if (subject === undefined) continue;
          const body = encoder.encode(JSON.stringify(event satisfies Envelope));
          if (body.length > maxPayload) {
            link.noteTooLarge(event.id, body.length);
            continue;
          }
          const h = headers();
          h.set('Engram-Seq', String(seq));
          // The publish point: whatever the code above decided, nothing the scope does not share leaves.
          assertShareable(link.settings.scope, event.type);
          // Each promise is settled into a value at once, so one that fails while an earlier
          // ack is awaited is never an unhandled rejection.
          window.push(js.publish(subject, body, { msgID: event.id, headers: h }).then(
            (ack) => ({ seq, subject, ack }),
            (error: unknown) => ({ seq, subject, error }),
          ));
          if (window.length >= FORWARD_WINDOW) await settle();
        }
      }
      while (window.length > 0) await settle();
    } catch (err) {
      link.noteError(err);
      // The rest are left to settle on their own; what they stored, the resend's ids dedupe.
      await Promise.allSettled(window);
      throw err;
    }
    link.noteForwarded(ctx.to, ctx.log.head);
  }
}
