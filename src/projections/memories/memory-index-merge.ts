import type { IndexEntry } from '../file-ops.js';
import { indexLine, linkTarget } from '../memory-index.js';

/** Claude Code loads the first 200 lines of MEMORY.md, and at most about 25 KB. */
export const INDEX_LINE_LIMIT = 200;
export const INDEX_BYTE_LIMIT = 24_000;
/** Lines left free for what other writers append (engram's own stats lines among them). */
const HEADROOM = 5;
/** Pointers kept under `## Archive Index`, newest first. */
const ARCHIVE_POINTERS = 20;
export const ARCHIVE_HEADING = '## Archive Index';

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
  /** Every file of the directory the projection manages, wherever it now is: their old lines go. */
  managed: readonly string[];
  /** Archived memories, newest first: a one-line pointer each, so the agent knows the context moved. */
  archived: readonly ArchivePointer[];
  /**
   * Inline entries of a standalone MEMORY.md that became memories: these exact lines are the
   * projection's now, replaced by their memories' index lines. Default none.
   */
  replaces?: readonly string[];
}

const ENTRIES = Symbol('entries');
const ARCHIVE = Symbol('archive');
/** A blank line engram put before an archive section it added: there only when the section is. */
const GAP = Symbol('gap');
type Slot = string | typeof ENTRIES | typeof ARCHIVE | typeof GAP;

/**
 * MEMORY.md with the memories projection's lines put in: its old lines (any line linking to a
 * file it manages) are taken out and its entries written, best first, where the first of them
 * stood; every other line, written by hand or by another tool, stays where it stands, byte for
 * byte. Archived memories get a pointer under `## Archive Index`. The whole stays within what
 * Claude Code loads (200 lines, ~25 KB): what does not fit is left out of the index, never
 * deleted. Pure, deterministic, and merging the same index again changes nothing.
 */
export function mergeMemoryIndex(existing: string | undefined, index: MemoryIndex): string {
  const managed = new Set(index.managed);
  const replaced = new Set(index.replaces ?? []);
  // Lines are kept as they are, line endings too.
  const eol = existing?.includes('\r\n') ? '\r\n' : '\n';
  const lines = existing === undefined || existing === '' ? [] : existing.replace(/\r?\n$/, '').split(/\r?\n/);
  const slots: Slot[] = [];
  const handInSection: string[] = [];
  let inSection = false;
  for (const line of lines) {
    if (line.trim() === ARCHIVE_HEADING && !slots.includes(ARCHIVE)) {
      inSection = true;
      slots.push(ARCHIVE);
      continue;
    }
    if (inSection && /^#{1,2}\s/.test(line)) inSection = false;
    if (linksToAny(line, managed) || (!inSection && replaced.has(line))) {
      if (!inSection && !slots.includes(ENTRIES)) slots.push(ENTRIES);
      continue;
    }
    if (inSection) handInSection.push(line);
    else slots.push(line);
  }
  if (!slots.includes(ENTRIES)) {
    // Before the archive section (and the blank lines that lead to it), else at the end.
    let at = slots.indexOf(ARCHIVE);
    if (at < 0) at = slots.length;
    while (at > 0 && slots[at - 1] === '') at--;
    slots.splice(at, 0, ENTRIES);
  }
  // A section that was there stays, even empty; one engram adds is there only with something in it.
  const hadSection = slots.includes(ARCHIVE);
  if (!hadSection && index.archived.length > 0) {
    if (slots.length > 0 && slots[slots.length - 1] !== '') slots.push(GAP);
    slots.push(ARCHIVE);
  }
  const kept = slots.filter((slot) => typeof slot === 'string').length;
  const room = INDEX_LINE_LIMIT - HEADROOM - kept;
  const sectionSize = (pointers: number) => (hadSection || pointers + handInSection.length > 0 ? 1 + handInSection.length + pointers : 0);
  let pointers = index.archived.slice(0, Math.max(0, Math.min(ARCHIVE_POINTERS, room - sectionSize(0)))).map(pointerLine);
  let shown = index.shown.slice(0, Math.max(0, room - sectionSize(pointers.length))).map(indexLine);
  let text = render(slots, shown, handInSection, pointers, eol, hadSection);
  // Within the bytes too: the least relevant entry goes first, then the oldest pointer.
  while (Buffer.byteLength(text) > INDEX_BYTE_LIMIT && shown.length + pointers.length > 0) {
    if (shown.length > 0) shown = shown.slice(0, -1);
    else pointers = pointers.slice(0, -1);
    text = render(slots, shown, handInSection, pointers, eol, hadSection);
  }
  return text;
}

function render(slots: readonly Slot[], shown: readonly string[], handInSection: readonly string[], pointers: readonly string[], eol: string, hadSection: boolean): string {
  const section = hadSection || pointers.length + handInSection.length > 0;
  const out: string[] = [];
  for (const slot of slots) {
    if (slot === ENTRIES) out.push(...shown);
    else if (slot === ARCHIVE) {
      if (section) out.push(ARCHIVE_HEADING, ...handInSection, ...pointers);
    } else if (slot === GAP) {
      if (section && out.length > 0) out.push('');
    } else out.push(slot);
  }
  return out.length === 0 ? '' : `${out.join(eol)}${eol}`;
}

function pointerLine(pointer: ArchivePointer): string {
  return `- [${pointer.name}](${linkTarget(pointer.file)}) — ${pointer.note}`;
}

const LINK = /\]\(\s*(?:\.\/)?([^)\s]+)\s*\)/g;

function linksToAny(line: string, files: ReadonlySet<string>): boolean {
  for (const match of line.matchAll(LINK)) if (files.has(decodeTarget(match[1]!))) return true;
  return false;
}

function decodeTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}
