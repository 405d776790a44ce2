import * as z from 'zod/mini';
import { MEMORY_TYPES, TIERS } from './memory-kinds.js';
import { MEMORY_BODY_CAP } from './memory-events.js';
import { defineEvent } from './define-event.js';

/**
 * The team scope's events (docs/team-sync.md). A memory of a project opted in is shared as a
 * MemoryShared event carrying the memory itself, so what leaves the machine is exactly the
 * memory, never the prompt, tool call or transcript it was learned from. A teammate's
 * MemoryShared becomes, on the receiving machine, a TeamMemoryReceived about the local project.
 */

/** A project's identity the same on every machine: its normalised git remote, or its `.engram-project` file. */
const projectId = z.string().check(z.minLength(1), z.maxLength(300));
const memoryId = z.string().check(z.minLength(1), z.maxLength(200));
/** Who shared it: the sender's syncUser. */
const person = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/));

/** The memory as shared: what its file says, nothing about where it lives or whose session taught it. */
const sharedMemory = {
  projectId,
  memoryId,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z.string().check(z.maxLength(1000)),
  type: z.enum(MEMORY_TYPES),
  tier: z.optional(z.enum(TIERS)),
  body: z.string().check(z.maxLength(MEMORY_BODY_CAP)),
  /** active: in force; archived: archived, superseded or forgotten on the sender's machine. */
  state: z.enum(['active', 'archived']),
};

export const MemoryShared = defineEvent({
  type: 'MemoryShared',
  schemaVersion: 1,
  summary: 'A memory of a project opted in to the team scope was made or changed here, and is shared with the team as it now stands.',
  data: () => z.object({ ...sharedMemory, sharedBy: person }),
});

export const TeamMemoryReceived = defineEvent({
  type: 'TeamMemoryReceived',
  schemaVersion: 1,
  summary: "A teammate's shared memory arrived for a project opted in here: a provisional memory, shown as theirs, until you take it up.",
  data: () => z.object({ ...sharedMemory, from: person, sharedEvent: z.string().check(z.minLength(8), z.maxLength(80)) }),
});

export const teamEvents = [MemoryShared, TeamMemoryReceived] as const;
