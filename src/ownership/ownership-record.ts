import * as z from 'zod/mini';

/**
 * What engram knows of one path it writes outside ENGRAM_HOME: the hash of what it last wrote
 * there, and the hash it is about to write (recorded before the write, so a crash between the
 * write and the commit never makes engram's own file look like someone else's).
 */
export interface OwnershipRecord {
  /** Hash of what engram last wrote there and saw land. */
  hash: string;
  /** Hash of what engram is writing there now; cleared once the write landed. */
  intended?: string;
  /**
   * The text engram last wrote (memory files, kept while small): the base a hand edit is
   * compared with, so that only the fields the person changed are taken in.
   */
  text?: string;
  /** For MEMORY.md: the lines engram wrote there (each writer's own); every other line is someone else's. */
  lines?: string[];
}

export const ownershipRecordShape = z.object({
  hash: z.string(),
  intended: z.optional(z.string()),
  text: z.optional(z.string()),
  lines: z.optional(z.array(z.string())),
});

/** Texts kept as a hand edit's base up to this size; above it, an edit is compared with the memory as it is. */
export const BASE_TEXT_LIMIT = 64 * 1024;

/**
 * The record to put before engram replaces `bytes` (hashing to `existingHash`, engram's) with
 * bytes hashing to `fresh`: its intent, over what it knows to be its own. When the bytes there
 * are the ones an earlier write intended (a kill after that write landed, before its record
 * did), they become the record's hash and base text, since this intent replaces the earlier one:
 * a second kill before this write lands must still find them engram's.
 */
export function recordBeforeWrite(record: OwnershipRecord | undefined, bytes: Buffer | undefined, existingHash: string | undefined, fresh: string): OwnershipRecord {
  if (record === undefined) return { hash: existingHash ?? fresh, intended: fresh };
  if (bytes === undefined || existingHash === undefined || existingHash === record.hash || existingHash !== record.intended) return { ...record, intended: fresh };
  const { text: _stale, ...rest } = record;
  return { ...rest, hash: existingHash, ...(bytes.length <= BASE_TEXT_LIMIT ? { text: bytes.toString('utf8') } : {}), intended: fresh };
}
