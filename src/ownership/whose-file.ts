import type { OwnershipRecord } from './ownership-record.js';

/**
 * Whose bytes a file holds (DESIGN.md invariant 6, "the user's bytes are the user's"):
 *
 * - `absent`: there is no file;
 * - `engram`: they hash to what engram last wrote there, or to what it was about to write
 *   (recorded before the write); with no record at all (projection state lost), only a file
 *   that is exactly what engram would write now;
 * - `recorded`: someone else's, but already taken in by an event (a recorded hand edit, an
 *   import in place): the log keeps those bytes, so engram may write the memory over them;
 * - `user`: anything else. Never overwritten, moved, deleted or replaced; the reconciler
 *   records it as an edit first.
 *
 * This is the one place that answers the question; every sink, the reconciler and import ask it.
 */
export type Owner = 'absent' | 'engram' | 'recorded' | 'user';

export interface WhoseFileFacts {
  /** What engram would write there now (no record: the only proof of engram's). */
  fresh?: string | undefined;
  /** Hashes the row has taken in by an event (MemoryEdited.contentHash, an import's sourceHash). */
  taken?: ReadonlyArray<string | undefined>;
}

export function whoseFile(hash: string | undefined, record: OwnershipRecord | undefined, facts: WhoseFileFacts = {}): Owner {
  if (hash === undefined) return 'absent';
  if (record !== undefined) {
    if (hash === record.hash || hash === record.intended) return 'engram';
  } else if (facts.fresh !== undefined && hash === facts.fresh) return 'engram';
  if (facts.taken?.some((taken) => taken !== undefined && taken === hash)) return 'recorded';
  return 'user';
}

/** Whether engram may put its bytes where these are. */
export function mayReplace(owner: Owner): boolean {
  return owner !== 'user';
}
