import * as z from 'zod/mini';
import { MEMORY_TYPES, ORIGINS, TIERS } from './memory-kinds.js';
import { defineEvent } from './define-event.js';

/**
 * What happens to memories, as events: proposed, reinforced, corroborated, edited, pinned,
 * superseded, archived, restored, forgotten. The memories projection folds them into Claude
 * Code's memory files; nothing here is ever deleted, only moved (DESIGN.md invariant 6). The
 * envelope's `project` is the memory's project, '' for a global one.
 */

/** Longest memory body the log keeps; a longer file is reported and left alone, never cut. */
export const MEMORY_BODY_CAP = 64_000;

const memoryId = z.string().check(z.minLength(1), z.maxLength(200));
const name = z.string().check(z.minLength(1), z.maxLength(200));
const description = z.string().check(z.maxLength(1000));
const body = z.string().check(z.maxLength(MEMORY_BODY_CAP));
const confidence = z.number().check(z.gte(0), z.lte(1));
const isoTime = z.iso.datetime({ offset: true });
const fileName = z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[^/\\\0]+\.md$/));
const reason = z.string().check(z.maxLength(500));
/** Frontmatter fields engram does not know, in order and place, so a file written back loses none. */
const extraField = z.object({ key: z.string().check(z.maxLength(200)), value: z.unknown(), flow: z.optional(z.literal(true)) });
const extra = z.object({ top: z.array(extraField), metadata: z.array(extraField) });
/** `implemented_in`: the skill (or skills) a memory went into, or `declined`, as its file says. */
const implementedIn = z.union([z.string().check(z.maxLength(200)), z.array(z.string().check(z.maxLength(200))).check(z.maxLength(20))]);

export const MemoryProposed = defineEvent({
  type: 'MemoryProposed',
  schemaVersion: 1,
  summary: 'A memory was proposed: by the correction detector, the distiller, the agent, an import or the user.',
  data: () => z.object({
    memoryId,
    origin: z.enum(ORIGINS),
    /** global: a preference that holds in every project; the envelope's project is then ''. */
    scope: z.enum(['project', 'global']),
    name,
    description,
    type: z.enum(MEMORY_TYPES),
    tier: z.optional(z.enum(TIERS)),
    body,
    /** provisional: inferred, kept out of MEMORY.md and recall until corroborated. */
    status: z.enum(['provisional', 'active']),
    confidence,
    pinned: z.optional(z.boolean()),
    /** Names or file names of the memories this one says are wrong. */
    contradicts: z.optional(z.array(z.string().check(z.maxLength(200))).check(z.maxLength(20))),
    /** When it was first written, if before this event (an import keeps the file's dates). */
    created: z.optional(isoTime),
    lastReinforced: z.optional(isoTime),
    reinforced: z.optional(z.int().check(z.nonnegative())),
    /** The file name it had (an import), kept when it does not clash. */
    fileName: z.optional(fileName),
    /**
     * An import of a file already in its memory directory: the hash of the file as it was, so
     * the projection knows that file as this memory's and writes it back in place.
     */
    sourceHash: z.optional(z.string().check(z.maxLength(64))),
    extra: z.optional(extra),
    /**
     * An entry written inline in a standalone MEMORY.md (its lines, exactly): the index line of
     * this memory takes their place, so converting to the index layout loses nothing and moves nothing.
     */
    indexLines: z.optional(z.array(z.string().check(z.maxLength(2000))).check(z.maxLength(50))),
    /** The file's `implemented_in` (an import, a file adopted where it is): it is suggested as a skill no more. */
    implementedIn: z.optional(implementedIn),
  }),
});

export const MemoryReinforced = defineEvent({
  type: 'MemoryReinforced',
  schemaVersion: 1,
  summary: 'A memory was said again: its confidence rises by 0.1 (at most 1), and a provisional one becomes active.',
  data: () => z.object({ memoryId, by: z.enum(ORIGINS) }),
});

export const MemoryCorroborated = defineEvent({
  type: 'MemoryCorroborated',
  schemaVersion: 1,
  summary: 'A provisional memory was confirmed and is now active.',
  data: () => z.object({ memoryId, by: z.enum(ORIGINS) }),
});

export const MemoryEdited = defineEvent({
  type: 'MemoryEdited',
  schemaVersion: 1,
  summary: 'A memory file was changed by hand or by the agent; the change is the memory now, and is never overwritten.',
  data: () => z.object({
    memoryId,
    by: z.enum(['hand', 'agent']),
    name,
    description,
    type: z.enum(MEMORY_TYPES),
    tier: z.optional(z.enum(TIERS)),
    body,
    confidence: z.optional(confidence),
    pinned: z.optional(z.boolean()),
    contradicts: z.optional(z.array(z.string().check(z.maxLength(200))).check(z.maxLength(20))),
    extra: z.optional(extra),
    /** The hash of the file as edited: engram may rewrite that file, since the edit is now the memory. */
    contentHash: z.optional(z.string().check(z.maxLength(64))),
    /**
     * The `metadata.modified` the edited file says, kept so that writing the file back gives the
     * very bytes that were edited. Default: the event's time.
     */
    modified: z.optional(z.string().check(z.maxLength(40))),
    /** The edited file's `implemented_in`; null: it has none. Absent (events from before it was read): unchanged. */
    implementedIn: z.optional(z.nullable(implementedIn)),
    /**
     * The fields the person changed, compared with what engram last wrote there: only these are
     * taken in, so that what came in meanwhile (a reinforcement) stays. Absent (events from
     * before it was recorded): every field above.
     */
    changed: z.optional(z.array(z.enum(['name', 'description', 'type', 'tier', 'body', 'confidence', 'pinned', 'contradicts', 'extra', 'implementedIn'])).check(z.maxLength(10))),
  }),
});

export const MemoryPinned = defineEvent({
  type: 'MemoryPinned',
  schemaVersion: 1,
  summary: 'A memory was pinned: never archived, never rewritten by a reactor.',
  data: () => z.object({ memoryId }),
});

export const MemoryUnpinned = defineEvent({
  type: 'MemoryUnpinned',
  schemaVersion: 1,
  summary: 'A memory was unpinned.',
  data: () => z.object({ memoryId }),
});

export const MemorySuperseded = defineEvent({
  type: 'MemorySuperseded',
  schemaVersion: 1,
  summary: 'An active memory that contradicts this one retired it; it moves to _archive/ with its body intact.',
  data: () => z.object({ memoryId, by: memoryId }),
});

export const MemoryArchived = defineEvent({
  type: 'MemoryArchived',
  schemaVersion: 1,
  summary: 'A memory moved to _archive/ (decayed below the threshold, say); its body is kept and MEMORY.md points to it.',
  data: () => z.object({ memoryId, reason, strength: z.optional(z.number()) }),
});

export const MemoryForgotten = defineEvent({
  type: 'MemoryForgotten',
  schemaVersion: 1,
  summary: 'The user asked to forget a memory: it is archived with their reason, never deleted.',
  data: () => z.object({ memoryId, reason }),
});

export const MemoryRestored = defineEvent({
  type: 'MemoryRestored',
  schemaVersion: 1,
  summary: 'An archived or superseded memory was brought back to its memory directory.',
  data: () => z.object({ memoryId }),
});

export const MemoriesMaintained = defineEvent({
  type: 'MemoriesMaintained',
  schemaVersion: 1,
  summary: 'The maintenance tick ran: its time is the "now" memories are scored at until the next one.',
  data: () => z.object({ at: isoTime }),
});

export const MemoryVerified = defineEvent({
  type: 'MemoryVerified',
  schemaVersion: 1,
  summary: 'The maintenance tick checked what a memory claims (files, functions, branches, packages, URLs) against its project.',
  data: () => z.object({
    memoryId,
    /** What was checked, and what was found; unverifiable claims are said to be so. */
    claims: z.array(z.object({
      kind: z.string().check(z.maxLength(20)),
      value: z.string().check(z.maxLength(300)),
      status: z.enum(['ok', 'missing', 'unverifiable']),
    })).check(z.maxLength(50)),
    /** Staleness points these results add (DESIGN.md "Scores"). */
    penalty: z.number().check(z.gte(0), z.lte(100)),
  }),
});

export const HygieneReported = defineEvent({
  type: 'HygieneReported',
  schemaVersion: 1,
  summary: 'The maintenance tick\'s hygiene report for one memory directory: dead paths, near-duplicates, old memories, a project gone.',
  data: () => z.object({
    dir: z.string().check(z.maxLength(1000)),
    /** Memories whose referenced files are missing. */
    deadPaths: z.array(z.object({ memoryId, paths: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(20)) })).check(z.maxLength(200)),
    nearDuplicates: z.array(z.object({ a: memoryId, b: memoryId, similarity: z.number() })).check(z.maxLength(200)),
    /** Active memories last confirmed more than 90 days ago. */
    old: z.array(memoryId).check(z.maxLength(500)),
    /** The project's directory no longer exists. */
    orphaned: z.boolean(),
  }),
});

export const memoryEvents = [
  MemoryProposed,
  MemoryReinforced,
  MemoryCorroborated,
  MemoryEdited,
  MemoryPinned,
  MemoryUnpinned,
  MemorySuperseded,
  MemoryArchived,
  MemoryForgotten,
  MemoryRestored,
  MemoriesMaintained,
  MemoryVerified,
  HygieneReported,
] as const;
