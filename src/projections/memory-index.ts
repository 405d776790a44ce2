import type { IndexEntry } from './file-ops.js';

/**
 * MEMORY.md with engram's entries merged in: a line that already links to an entry's file is
 * rewritten in place, a missing one is added at the end, and every other line (hand-written,
 * other tools') stays byte for byte. Pure, and merging the same entries again changes nothing.
 */
export function mergeIndex(existing: string | undefined, entries: readonly IndexEntry[]): string {
  const lines = existing === undefined || existing === '' ? [] : existing.replace(/\n$/, '').split('\n');
  for (const entry of entries) {
    const line = indexLine(entry);
    const at = lines.findIndex((candidate) => linksTo(candidate, entry.file));
    if (at >= 0) lines[at] = line;
    else lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

export function indexLine(entry: IndexEntry): string {
  return `- [${entry.file}](${entry.file}) — ${entry.description}`;
}

function linksTo(line: string, file: string): boolean {
  return line.includes(`](${file})`);
}
