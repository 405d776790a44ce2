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
