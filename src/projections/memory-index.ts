import type { IndexEntry } from './file-ops.js';

/**
 * MEMORY.md with engram's entries merged in: a line that already links to an entry's file is
 * rewritten in place, a missing one is added at the end (before the memories' `## Archive
 * Index` section when there is one), and every other line (hand-written,
 * other tools') stays byte for byte. Pure, and merging the same entries again changes nothing.
 */
export function mergeIndex(existing: string | undefined, entries: readonly IndexEntry[]): string {
  const eol = existing?.includes('\r\n') ? '\r\n' : '\n';
  const lines = existing === undefined || existing === '' ? [] : existing.replace(/\r?\n$/, '').split(/\r?\n/);
  for (const entry of entries) {
    const line = indexLine(entry);
    const at = lines.findIndex((candidate) => linksTo(candidate, entry.file));
    if (at >= 0) lines[at] = line;
    else lines.splice(beforeArchive(lines), 0, line);
  }
  return `${lines.join(eol)}${eol}`;
}

/** Where a new entry goes: the end, or before `## Archive Index` (and the blank lines leading to it). */
function beforeArchive(lines: readonly string[]): number {
  let at = lines.findIndex((line) => line.trim() === '## Archive Index');
  if (at < 0) return lines.length;
  while (at > 0 && lines[at - 1] === '') at--;
  return at;
}

export function indexLine(entry: IndexEntry): string {
  return `- [${entry.file}](${linkTarget(entry.file)}) — ${entry.description}`;
}

/** A file name as a link target: spaces and parentheses would end the link, so they are %-escaped (readers decode them). */
export function linkTarget(file: string): string {
  return file.replace(/[ ()<>%]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function linksTo(line: string, file: string): boolean {
  return line.includes(`](${linkTarget(file)})`);
}
