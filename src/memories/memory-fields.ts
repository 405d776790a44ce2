import { z } from 'zod';
import { MEMORY_TYPES, STATUSES, TIERS } from '../events/memory-kinds.js';

/**
 * The frontmatter fields engram knows, as DESIGN.md "Memory files" names them, each with where it
 * is written (`top`, or under `metadata:`) and what a valid value is. Everything else in a
 * frontmatter is someone else's and is carried along untouched.
 */

/** Written at the top, in this order (Claude Code's own fields). */
export const TOP_FIELDS = ['name', 'description', 'type'] as const;
/** Written under `metadata:`, in this order: Claude Code's `modified`, then engram's. */
export const METADATA_FIELDS = [
  'modified',
  'tier',
  'confidence',
  'reinforced',
  'last_reinforced',
  'status',
  'contradicts',
  'superseded_by',
  'superseded_at',
  'implemented_in',
  'pinned',
  'created',
  'origin_session',
] as const;

export type TopField = (typeof TOP_FIELDS)[number];
export type MetadataField = (typeof METADATA_FIELDS)[number];
export type KnownField = TopField | MetadataField;

export function homeOf(field: KnownField): 'top' | 'metadata' {
  return (TOP_FIELDS as readonly string[]).includes(field) ? 'top' : 'metadata';
}

const ISO_ISH = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * A date, or a date and time, as people and tools write them: `2026-05-11`,
 * `2026-09-03T00:00:00.000Z`, `2026-09-24 18:58:33+02:00`. Kept as written, never normalised, so
 * a file read and written back says the same thing.
 */
export function isIsoIsh(value: string): boolean {
  const m = ISO_ISH.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 60))) return false;
  return true;
}

const text = z.string().min(1).refine((s) => s.trim() !== '', 'blank');
const isoIsh = z.string().refine(isIsoIsh, 'not a date (YYYY-MM-DD, optionally with a time)');
const textOrList = z.union([text, z.array(text)]);

export const fieldSchemas = {
  name: text,
  description: z.string(),
  type: z.enum(MEMORY_TYPES),
  modified: isoIsh,
  tier: z.enum(TIERS),
  confidence: z.number().min(0).max(1),
  reinforced: z.number().int().min(0),
  last_reinforced: isoIsh,
  status: z.enum(STATUSES),
  contradicts: textOrList,
  superseded_by: text,
  superseded_at: isoIsh,
  implemented_in: textOrList,
  pinned: z.boolean(),
  created: isoIsh,
  origin_session: text,
} as const satisfies Record<KnownField, z.ZodType>;

export type KnownValues = { [K in KnownField]?: z.infer<(typeof fieldSchemas)[K]> };
