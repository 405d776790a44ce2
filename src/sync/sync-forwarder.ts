import { headers } from '@nats-io/transport-node';
import type { PubAck } from '@nats-io/jetstream';
import type { Envelope } from '../events/envelope.js';
import type { Reactor } from '../engine/reactor.js';
import { shareableIn } from './shareable-events.js';
import type { SyncLink } from './sync-link.js';

/** Publishes in flight at once, their acks awaited in order. */
export const FORWARD_WINDOW = 256;
/** Room the server's max_payload must leave beyond the event for the headers. */
const HEADER_ROOM = 1024;

type Sent = { seq: number; ack?: PubAck; error?: unknown };

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
  return {
    name: 'sync-forwarder',
    async react(ctx) {
      if (ctx.from > ctx.to) return [];
      const { js, nc } = await link.connection(ctx.signal);
      const maxPayload = (nc.info?.max_payload ?? 1024 * 1024) - HEADER_ROOM;
      const encoder = new TextEncoder();
      const window: Array<Promise<Sent>> = [];
      const settle = async (): Promise<void> => {
        const sent = await window.shift()!;
        if (sent.error !== undefined) throw sent.error;
        link.noteAck(sent.seq, sent.ack!.seq);
      };
      try {
        for await (const batch of ctx.log.read({ from: ctx.from, to: ctx.to, batchSize: FORWARD_WINDOW })) {
          ctx.signal.throwIfAborted();
          const imported = await link.store.imported(batch.map((event) => event.id));
          for (let i = 0; i < batch.length; i++) {
            const { seq, ...event } = batch[i]!;
            if (imported[i] || !shareableIn(link.settings.scope, event.type)) continue;
            const body = encoder.encode(JSON.stringify(event satisfies Envelope));
            if (body.length > maxPayload) {
              link.noteTooLarge(event.id, body.length);
              continue;
            }
            const h = headers();
            h.set('Engram-Seq', String(seq));
            // Each promise is settled into a value at once, so one that fails while an earlier
            // ack is awaited is never an unhandled rejection.
            window.push(js.publish(link.subject, body, { msgID: event.id, headers: h }).then(
              (ack) => ({ seq, ack }),
              (error: unknown) => ({ seq, error }),
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
      return [];
    },
  };
}
