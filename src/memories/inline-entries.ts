import type { IndexLine } from './classify-memory-index.js';
import type { MemoryType } from '../events/memory-kinds.js';

/** One entry written inline in a standalone MEMORY.md, as a memory. */
export interface InlineEntry {
  /** Its lines, exactly: the entry and the indented lines that continue it. */
  lines: string[];
  name: string;
  description: string;
  type: MemoryType;
  /** The lines as they were, so the memory says exactly what the entry said. */
  body: string;
}

const NAME_CHARS = 60;
const DESCRIPTION_CHARS = 150;

/**
 * The inline entries of a MEMORY.md (classifyMemoryIndex's `entry` lines, each with the indented
 * lines under it), each to become a memory file. The heading above an entry says its type when
 * it names one (Preferences → user, Feedback/Rules → feedback, Project → project, References →
 * reference); otherwise `unknown`. Pure.
 */
export function inlineEntries(lines: readonly IndexLine[]): InlineEntry[] {
  const entries: InlineEntry[] = [];
  let heading = '';
  let current: InlineEntry | undefined;
  for (const line of lines) {
    if (line.kind === 'heading') heading = line.text;
    const continues = current !== undefined && /^[ \t]+\S/.test(line.text) && (line.kind === 'entry' || line.kind === 'text');
    if (continues) {
      current!.lines.push(line.text);
      current!.body += `${line.text}\n`;
      continue;
    }
    current = undefined;
    if (line.kind !== 'entry') continue;
    const text = line.text.replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/, '').replace(/\*\*|__|`/g, '').trim();
    current = { lines: [line.text], name: shorten(text, NAME_CHARS) || 'memory', description: shorten(text, DESCRIPTION_CHARS), type: typeOf(heading), body: `${line.text}\n` };
    entries.push(current);
  }
  return entries;
}

function typeOf(heading: string): MemoryType {
  const h = heading.toLowerCase();
  if (/prefer|about me|\buser\b/.test(h)) return 'user';
  if (/feedback|lesson|rule|convention|style/.test(h)) return 'feedback';
  if (/reference|link|resource|doc/.test(h)) return 'reference';
  if (/project|architecture|repo|codebase/.test(h)) return 'project';
  return 'unknown';
}

/** At most `max` characters, cut at a word where one is near. */
function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
