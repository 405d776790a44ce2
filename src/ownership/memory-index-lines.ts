/**
 * MEMORY.md, merged line by line under the ownership rule: engram owns exactly the lines it
 * wrote there (the ledger keeps them, per writer); every other line is someone else's and stays
 * where it stands, word for word, even one that links to a file engram writes. Pure.
 */

/**
 * Claude Code loads the first 200 lines of MEMORY.md, and at most about 25 KB; the KB left above
 * INDEX_BYTE_LIMIT, like HEADROOM's lines, is for the lines of engram's other writers.
 */
export const INDEX_LINE_LIMIT = 200;
export const INDEX_BYTE_LIMIT = 24_000;
/** Lines left free for what other writers append (engram's own stats lines among them). */
const HEADROOM = 5;
/** Pointers kept under `## Archive Index`, newest first. */
export const ARCHIVE_POINTERS = 20;
export const ARCHIVE_HEADING = '## Archive Index';

export interface IndexEntry {
  file: string;
  description: string;
}

export interface ArchivePointer {
  /** `_archive/<file>.md` */
  file: string;
  name: string;
  /** Why and when it moved: `archived 2026-11-02: decayed`. */
  note: string;
}

/** What the memories projection wants a directory's MEMORY.md to say. */
export interface MemoryIndex {
  /** Active memories, best first; as many as fit are shown. */
  shown: readonly IndexEntry[];
  /** Archived memories, newest first: a one-line pointer each, so the agent knows the context moved. */
  archived: readonly ArchivePointer[];
  /** `shown` holds the best entries only: more follow. Default false. */
  moreShown?: boolean;
  /** `archived` holds the newest pointers only: more follow. Default false. */
  moreArchived?: boolean;
  /**
   * Inline entries of a standalone MEMORY.md that became memories (recorded as events with
   * these lines): they are replaced by their memories' index lines. Default none.
   */
  replaces?: readonly string[];
}

/** One writer's part of MEMORY.md. */
export type IndexPart =
  /** Lines for these entries (the stats files'): each replaces the writer's own line for its file, or goes before the archive section. */
  | { readonly kind: 'entries'; readonly entries: readonly IndexEntry[] }
  /** The memories' part: their entries, ordered and capped, and the archive index. */
  | { readonly kind: 'memories'; readonly index: MemoryIndex };

export interface IndexMerge {
  lines: string[];
  /** Lines of this writer's that are gone now. */
  removed: string[];
  /** This writer's lines now there. */
  added: string[];
  /**
   * The merge would have looked past the entries a partial index holds (moreShown,
   * moreArchived): merge the full index instead. Always false for a complete index.
   */
  short?: boolean;
}

export function indexLine(entry: IndexEntry): string {
  return `- [${entry.file}](${linkTarget(entry.file)}) — ${entry.description}`;
}

/** A file name as a link target: spaces and parentheses would end the link, so they are %-escaped (readers decode them). */
export function linkTarget(file: string): string {
  return file.replace(/[ ()<>%]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * `owned`: the lines this writer wrote there before (undefined: no record, as before engram kept
 * one: then only a line exactly as engram would write it now counts as engram's).
 */
export function mergeIndexLines(existing: readonly string[], owned: ReadonlySet<string> | undefined, part: IndexPart, others: ReadonlySet<string> = new Set()): IndexMerge {
  const wanted = part.kind === 'entries' ? part.entries.map(indexLine) : [...part.index.shown.map(indexLine), ...part.index.archived.map(pointerLine)];
  const mine = owned ?? new Set(wanted);
  return part.kind === 'entries' ? mergeEntries(existing, mine, part.entries) : mergeMemories(existing, mine, part.index, others, owned !== undefined);
}

function mergeEntries(existing: readonly string[], mine: ReadonlySet<string>, entries: readonly IndexEntry[]): IndexMerge {
  const lines = [...existing];
  const removed: string[] = [];
  const added: string[] = [];
  for (const entry of entries) {
    const line = indexLine(entry);
    const at = lines.findIndex((candidate) => mine.has(candidate) && linksTo(candidate, entry.file));
    if (at >= 0) {
      if (lines[at] !== line) removed.push(lines[at]!);
      lines[at] = line;
    } else lines.splice(beforeArchive(lines), 0, line);
    added.push(line);
  }
  return { lines, removed, added };
}

/** Where a new entry goes: the end, or before `## Archive Index` (and the blank lines leading to it). */
function beforeArchive(lines: readonly string[]): number {
  let at = lines.findIndex((line) => line.trim() === ARCHIVE_HEADING);
  if (at < 0) return lines.length;
  while (at > 0 && lines[at - 1] === '') at--;
  return at;
}

const ENTRIES = Symbol('entries');
const ARCHIVE = Symbol('archive');
/**
 * A blank line engram put before an archive section it added: there only when the section is,
 * even at the top of the file, so that lines another writer puts before the section later (the
 * stats') stand where they would had they come first.
 */
const GAP = Symbol('gap');
type Slot = string | typeof ENTRIES | typeof ARCHIVE | typeof GAP;

/**
 * The memories' lines put in: engram's old lines taken out and its entries written, best first,
 * where the first of them stood; a memory someone already indexes with a line of their own in
 * the index's format keeps their line (their words) and gets no second one. Archived memories
 * get a pointer under `## Archive Index`. The whole stays within what Claude Code loads (200
 * lines, ~25 KB): what does not fit is left out of the index, never deleted. Merging the same
 * index again changes nothing.
 *
 * `others`: lines other engram writers own in the file (the stats files'). Lanes write at their
 * own pace, so which writer first reaches a directory is the machine's timing, not the log's:
 * with no line of its own there yet, the memories' part goes before the first of those lines
 * (where it would stand had it come first), and those lines do not count against its room
 * (HEADROOM keeps theirs). The file is then the same whichever came first.
 */
function mergeMemories(existing: readonly string[], mine: ReadonlySet<string>, index: MemoryIndex, others: ReadonlySet<string>, recorded: boolean): IndexMerge {
  const replaced = new Set(index.replaces ?? []);
  const removed: string[] = [];
  const slots: Slot[] = [];
  const handInSection: string[] = [];
  let inSection = false;
  let ownHeading = false;
  for (const line of existing) {
    if (line.trim() === ARCHIVE_HEADING && !slots.includes(ARCHIVE)) {
      inSection = true;
      ownHeading = mine.has(line);
      if (ownHeading) removed.push(line);
      slots.push(ARCHIVE);
      continue;
    }
    if (inSection && /^#{1,2}\s/.test(line)) inSection = false;
    if (mine.has(line) || (!inSection && replaced.has(line))) {
      removed.push(line);
      if (!inSection && !slots.includes(ENTRIES)) slots.push(ENTRIES);
      continue;
    }
    if (inSection) handInSection.push(line);
    else slots.push(line);
  }
  // A memory someone indexes in their own words keeps their line alone.
  const theirs = new Set(slots.flatMap((slot) => (typeof slot === 'string' ? entryFileOf(slot) : [])));
  const shownEntries = index.shown.filter((entry) => !theirs.has(entry.file));
  if (!slots.includes(ENTRIES)) {
    let at = slots.findIndex((slot) => typeof slot === 'string' && others.has(slot));
    if (at < 0) {
      at = slots.indexOf(ARCHIVE);
      if (at < 0) at = slots.length;
      while (at > 0 && slots[at - 1] === '') at--;
    }
    slots.splice(at, 0, ENTRIES);
  }
  // A section someone else made stays, even empty; engram's is there only with something in it.
  const hadSection = slots.includes(ARCHIVE) && !ownHeading;
  if (!slots.includes(ARCHIVE) && index.archived.length > 0) {
    if (slots.length > 0 && slots[slots.length - 1] !== '') slots.push(GAP);
    slots.push(ARCHIVE);
  }
  const kept = slots.filter((slot) => typeof slot === 'string' && !others.has(slot)).length;
  const room = INDEX_LINE_LIMIT - HEADROOM - kept;
  const sectionSize = (pointers: number) => (hadSection || pointers + handInSection.length > 0 ? 1 + handInSection.length + pointers : 0);
  let pointers = index.archived.slice(0, Math.max(0, Math.min(ARCHIVE_POINTERS, room - sectionSize(0)))).map(pointerLine);
  const wantedShown = Math.max(0, room - sectionSize(pointers.length));
  let shown = shownEntries.slice(0, wantedShown).map(indexLine);
  let lines = render(slots, shown, handInSection, pointers, hadSection);
  // Within the bytes too: the least relevant entry goes first, then the oldest pointer.
  const bytes = (all: readonly string[]) => Buffer.byteLength(all.filter((line) => !others.has(line)).join('\n')) + 1;
  while (bytes(lines) > INDEX_BYTE_LIMIT && shown.length + pointers.length > 0) {
    if (shown.length > 0) shown = shown.slice(0, -1);
    else pointers = pointers.slice(0, -1);
    lines = render(slots, shown, handInSection, pointers, hadSection);
  }
  const section = hadSection || pointers.length + handInSection.length > 0;
  const added = [...shown, ...pointers, ...(section && !hadSection ? [ARCHIVE_HEADING] : [])];
  // Without a record of its lines, engram's are those it would write now, of every entry; else
  // what is shown must not have run out before the room did.
  const short = (index.moreShown === true || index.moreArchived === true) && (!recorded
    || (index.moreShown === true && shownEntries.length < wantedShown)
    || (index.moreArchived === true && index.archived.length < Math.min(ARCHIVE_POINTERS, Math.max(0, room - sectionSize(0)))));
  return { lines, removed, added, short };
}

function render(slots: readonly Slot[], shown: readonly string[], handInSection: readonly string[], pointers: readonly string[], hadSection: boolean): string[] {
  const section = hadSection || pointers.length + handInSection.length > 0;
  const out: string[] = [];
  for (const slot of slots) {
    if (slot === ENTRIES) out.push(...shown);
    else if (slot === ARCHIVE) {
      if (section) out.push(ARCHIVE_HEADING, ...handInSection, ...pointers);
    } else if (slot === GAP) {
      if (section) out.push('');
    } else out.push(slot);
  }
  return out;
}

function pointerLine(pointer: ArchivePointer): string {
  return `- [${pointer.name}](${linkTarget(pointer.file)}) — ${pointer.note}`;
}

function linksTo(line: string, file: string): boolean {
  return line.includes(`](${linkTarget(file)})`);
}

/** The file a line in the index's own format (`- [file](file) — …`) indexes. */
const ENTRY = /^- \[([^\]]+)\]\(([^)\s]+)\) — /;

function entryFileOf(line: string): string[] {
  const match = ENTRY.exec(line);
  if (!match) return [];
  let target = match[2]!;
  try {
    target = decodeURIComponent(target);
  } catch {
    // kept as written
  }
  return target === match[1] ? [target] : [];
}

/**
 * MEMORY.md's bytes as lines, each kept exactly: a line that is not valid UTF-8 (a file someone
 * garbled, binary appended) stands for its bytes, which are written back as they were, never
 * decoded to U+FFFD.
 */
export interface IndexText {
  lines: string[];
  eol: '\n' | '\r\n';
  /** Placeholder line → its original bytes. */
  raw: Map<string, Buffer>;
  /** Whether some line is not UTF-8 (reported; kept byte for byte all the same). */
  garbled: boolean;
}

export function splitIndex(bytes: Buffer | undefined): IndexText {
  const raw = new Map<string, Buffer>();
  if (bytes === undefined || bytes.length === 0) return { lines: [], eol: '\n', raw, garbled: false };
  const crlf = bytes.includes('\r\n');
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      parts.push(bytes.subarray(start, crlf && i > start && bytes[i - 1] === 0x0d ? i - 1 : i));
      start = i + 1;
    }
  }
  if (start < bytes.length) parts.push(bytes.subarray(start));
  const lines = parts.map((part, i) => {
    const text = part.toString('utf8');
    // Bytes that are not UTF-8 decode to U+FFFD: only a line holding one is checked byte for byte.
    if (!text.includes('\ufffd') || Buffer.from(text, 'utf8').equals(part)) return text;
    // A placeholder no index line is: engram's lines never hold a NUL.
    const token = `\u0000raw:${i}`;
    raw.set(token, Buffer.from(part));
    return token;
  });
  return { lines, eol: crlf ? '\r\n' : '\n', raw, garbled: raw.size > 0 };
}

export function joinIndex(text: IndexText, lines: readonly string[]): Buffer {
  if (lines.length === 0) return Buffer.alloc(0);
  const eol = Buffer.from(text.eol);
  const chunks: Buffer[] = [];
  for (const line of lines) chunks.push(text.raw.get(line) ?? Buffer.from(line, 'utf8'), eol);
  return Buffer.concat(chunks);
}

export interface IndexTextMerge {
  bytes: Buffer;
  /** See IndexMerge.short. */
  short: boolean;
  /** The writer's lines once these bytes are there. */
  owned: string[];
  /** Some line of the file is not UTF-8: reported; kept byte for byte. */
  garbled: boolean;
}

/**
 * One writer's part merged into MEMORY.md's bytes: what the sink writes, and the lines the
 * writer owns after. `owned` undefined: no record (see mergeIndexLines). `others`: the lines
 * the writers this one's part goes before own there (see mergeMemories).
 */
export function mergeIndexText(bytes: Buffer | undefined, owned: readonly string[] | undefined, part: IndexPart, others: readonly string[] = []): IndexTextMerge {
  const text = splitIndex(bytes);
  const merge = mergeIndexLines(text.lines, owned === undefined ? undefined : new Set(owned), part, new Set(others));
  const after = new Set(owned ?? []);
  for (const line of merge.removed) after.delete(line);
  for (const line of merge.added) after.add(line);
  return { bytes: joinIndex(text, merge.lines), owned: [...after].sort(), garbled: text.garbled, short: merge.short === true };
}
