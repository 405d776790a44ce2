/**
 * The vocabulary of a memory, as DESIGN.md "Memory files" and "Scores" define it. Shared by the
 * memory file format, the scores, the events and the projection; no I/O, no dependencies, so
 * hooks may import it.
 */

/** Claude Code's four memory types, and engram's two. `unknown`: frontmatter that did not parse. */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference', 'value', 'insight', 'unknown'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** When set, a memory's tier decides its half-life instead of its type. */
export const TIERS = ['preference', 'procedural', 'fact', 'episodic', 'working', 'idea', 'rule'] as const;
export type Tier = (typeof TIERS)[number];

/** provisional: inferred, awaiting corroboration (kept out of MEMORY.md and recall). */
export const STATUSES = ['provisional', 'active', 'superseded'] as const;
export type MemoryStatus = (typeof STATUSES)[number];

/** Who proposed a memory. */
export const ORIGINS = ['correction', 'distiller', 'agent', 'import', 'user'] as const;
export type MemoryOrigin = (typeof ORIGINS)[number];

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value);
}

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}
