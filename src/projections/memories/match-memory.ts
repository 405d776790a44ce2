import type { MemoryType } from '../../memories/memory-kinds.js';
import type { DirEntry } from './memory-row.js';

/** DESIGN.md: a new memory of the same type whose words overlap this much is the same memory. */
export const SAME_MEMORY_JACCARD = 0.6;

/**
 * The memory of `entries` that says what `text` says: same type, still in force (not archived,
 * not superseded), token-set Jaccard ≥ 0.6 on name and description; the closest, ties by id.
 */
export function findSameMemory(entries: ReadonlyMap<string, DirEntry>, type: MemoryType, text: string): string | undefined {
  const wanted = tokens(text);
  let best: { id: string; score: number } | undefined;
  for (const [id, entry] of entries) {
    if (entry.type !== type || entry.archived || entry.status === 'superseded') continue;
    const score = jaccard(wanted, tokens(`${entry.name} ${entry.description}`));
    if (score >= SAME_MEMORY_JACCARD && (!best || score > best.score || (score === best.score && id < best.id))) best = { id, score };
  }
  return best?.id;
}

const STOP = new Set(['a', 'an', 'the', 'to', 'of', 'and', 'or', 'in', 'on', 'for', 'is', 'are', 'be', 'it', 'this', 'that', 'we', 'i', 'you']);

function tokens(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((token) => token !== '' && !STOP.has(token)));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}
