import { MEMORY_BODY_CAP } from '../events/memory-events.js';
import { isIsoIsh } from './memory-fields.js';
import type { MemoryFileContent, ParsedMemoryFile } from './memory-file.js';
import type { MemoryStatus, MemoryType, Tier } from '../events/memory-kinds.js';

/** The frontmatter field (under `metadata:`) that ties a file to the memory it shows. */
export const MEMORY_ID_FIELD = 'memory_id';

/** What a memory file says, in the shape the memory events carry it. */
export interface FileMemory {
  name: string;
  description: string;
  type: MemoryType;
  tier?: Tier;
  body: string;
  status: Exclude<MemoryStatus, 'superseded'>;
  confidence?: number;
  pinned?: boolean;
  contradicts?: string[];
  /** Full ISO times (the events' form), from the file's dates. */
  created?: string;
  lastReinforced?: string;
  reinforced?: number;
  /** `metadata.modified` exactly as the file writes it. */
  modified?: string;
  extra: MemoryFileContent['extra'];
  /** The memory id the file names, if engram wrote it. */
  memoryId?: string;
  /** `implemented_in`: the skill(s) it went into, or `declined`. */
  implementedIn?: string | string[];
}

/**
 * A parsed memory file as event fields, or why it cannot become one: over the log's body cap,
 * a name or description longer than an event holds. Nothing is ever cut to fit: such a file is
 * reported and left as it is. A malformed file is read as `type: unknown` with its whole text
 * as the body (parseMemoryFile already does that).
 */
export function memoryFromFile(parsed: ParsedMemoryFile): { memory: FileMemory } | { why: string } {
  if (parsed.body.length > MEMORY_BODY_CAP) return { why: `too large: ${parsed.body.length} characters, over the ${MEMORY_BODY_CAP}-character cap of a memory` };
  if (parsed.name.length > 200) return { why: `its name is ${parsed.name.length} characters, over 200` };
  if (parsed.description.length > 1000) return { why: `its description is ${parsed.description.length} characters, over 1000` };
  const contradicts = parsed.contradicts === undefined ? undefined : [parsed.contradicts].flat();
  if (contradicts && (contradicts.length > 20 || contradicts.some((c) => c.length > 200))) return { why: 'it contradicts more than 20 memories, or names one in over 200 characters' };
  const implemented = parsed.implemented_in;
  if (implemented !== undefined && [implemented].flat().some((skill) => skill.length > 200)) return { why: 'its implemented_in names a skill in over 200 characters' };
  if (Array.isArray(implemented) && implemented.length > 20) return { why: 'its implemented_in names more than 20 skills' };
  const idField = parsed.extra.metadata.find((field) => field.key === MEMORY_ID_FIELD);
  const memory: FileMemory = {
    name: parsed.name,
    description: parsed.description,
    type: parsed.type,
    body: parsed.body,
    status: parsed.status === 'provisional' ? 'provisional' : 'active',
    extra: { top: parsed.extra.top, metadata: parsed.extra.metadata.filter((field) => field !== idField) },
  };
  if (parsed.tier !== undefined) memory.tier = parsed.tier;
  if (parsed.confidence !== undefined) memory.confidence = parsed.confidence;
  if (parsed.pinned !== undefined) memory.pinned = parsed.pinned;
  if (contradicts !== undefined) memory.contradicts = contradicts;
  if (implemented !== undefined) memory.implementedIn = implemented;
  if (parsed.reinforced !== undefined) memory.reinforced = parsed.reinforced;
  const created = isoTime(parsed.created);
  const lastReinforced = isoTime(parsed.last_reinforced);
  if (created !== undefined) memory.created = created;
  if (lastReinforced !== undefined) memory.lastReinforced = lastReinforced;
  if (parsed.modified !== undefined && parsed.modified.length <= 40 && isIsoIsh(parsed.modified)) memory.modified = parsed.modified;
  if (typeof idField?.value === 'string') memory.memoryId = idField.value;
  return { memory };
}

/** A file's date (`2026-05-11`, `2026-09-24 18:58:33+02:00`…) as a full ISO time, or undefined. */
function isoTime(value: string | undefined): string | undefined {
  if (value === undefined || !isIsoIsh(value)) return undefined;
  const at = Date.parse(value.replace(' ', 'T'));
  return Number.isNaN(at) ? undefined : new Date(at).toISOString();
}
