import * as z from 'zod/mini';

/**
 * The one envelope every event travels in, from the spool file to the log. `data` is checked
 * against the event type's own schema (see catalog.ts); here it is only carried.
 */
export const envelopeSchema = z.object({
  /** Unique across the log; ingest dedupes on it. */
  id: z.string().check(z.minLength(8), z.maxLength(80)),
  type: z.string().check(z.minLength(1), z.maxLength(80)),
  schemaVersion: z.int().check(z.positive()),
  /** When it happened, by the injected clock (ISO 8601, UTC). */
  ts: z.iso.datetime(),
  /** Claude Code's session id; '' for events that belong to no session. */
  session: z.string().check(z.maxLength(200)),
  /** The session's cwd; '' for events that belong to no project. */
  project: z.string().check(z.maxLength(4096)),
  data: z.unknown(),
  /**
   * The engram build that wrote the event (its BUILD_ID, see build-id.ts), so a log says which
   * build wrote each event. Absent on events written before builds stamped it.
   */
  producer: z.optional(z.string().check(z.maxLength(80))),
});

export type Envelope = z.infer<typeof envelopeSchema>;

/** An event as the log holds it: the envelope plus its place in the log. */
export interface StoredEnvelope extends Envelope {
  /** Position in the log, from 1, assigned by the single writer; gapless but where a LogRepaired event records seqs lost. */
  seq: number;
}
