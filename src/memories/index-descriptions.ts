import type { IndexLine } from './classify-memory-index.js';

/**
 * What MEMORY.md's links say of each file (`- [x.md](x.md) — what it is`), by target: a file
 * adopted or imported without a description of its own takes this one, so the line a person
 * wrote keeps saying what it said once engram indexes the file. The first link to a file wins.
 */
export function indexDescriptions(lines: readonly IndexLine[] | undefined): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of lines ?? []) {
    if (line.kind !== 'link' || line.target === undefined || !line.description || found.has(line.target)) continue;
    found.set(line.target, line.description.slice(0, 1000));
  }
  return found;
}
