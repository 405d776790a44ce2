import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * What the worker's sync is doing, written by the worker to `<home>/sync/status.json` as it
 * changes and read by `engram sync status` and `engram doctor`. It names servers (which never
 * carry credentials: syncFromEnv refuses such a URL) and never the credentials file's content.
 */
export const syncStatusShape = z.object({
  scope: z.string(),
  subject: z.string(),
  servers: z.array(z.string()),
  pid: z.number(),
  updatedAt: z.string(),
  connected: z.boolean(),
  /** The local log's head, as the worker last saw it. */
  localHead: z.number(),
  /** The local seq up to which every shareable event is acked by the stream. */
  forwardedTo: z.number(),
  lastAck: z.optional(z.object({ seq: z.number(), streamSeq: z.number(), at: z.string() })),
  /** Events this worker published and had acked (since it started). */
  published: z.number(),
  /** The stream seq up to which the importer has taken in. */
  importedTo: z.number(),
  /** Events this worker brought in from other machines (since it started). */
  imported: z.number(),
  /** Messages of the subject the stream still holds beyond importedTo, when last known. */
  pending: z.optional(z.number()),
  /** Messages refused on import (bad shape, unknown type, outside the scope): see `<home>/sync/rejected/`. */
  rejected: z.number(),
  /** Events too large for the server, left unshared. */
  tooLarge: z.number(),
  /** Set when the stream no longer held events this machine had not imported (past its retention). */
  missed: z.optional(z.string()),
  lastError: z.optional(z.object({ message: z.string(), at: z.string() })),
  /** Per subject (a scope, a team project): events sent and taken in by this worker. */
  bySubject: z.optional(z.record(z.string(), z.object({ sent: z.number(), received: z.number() }))),
  /** The team scope's projects: their id (the same on every machine), subject and local directory. */
  teams: z.optional(z.array(z.object({ id: z.string(), subject: z.string(), dir: z.string() }))),
});

export type SyncStatus = z.infer<typeof syncStatusShape>;

export function syncStatusFile(dir: string): string {
  return join(dir, 'status.json');
}

/** The status the worker last wrote, or undefined when there is none or it cannot be read. */
export function readSyncStatus(dir: string): SyncStatus | undefined {
  try {
    const parsed = syncStatusShape.safeParse(JSON.parse(readFileSync(syncStatusFile(dir), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
