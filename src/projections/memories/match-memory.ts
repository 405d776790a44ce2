import type { MemoryType } from '../../events/memory-kinds.js';
import { bestMatch, memoryTokens } from '../../memories/similarity.js';
import type { DirEntry } from './memory-row.js';

/**
 * The memory of a directory that says what a new one says (DESIGN.md: same type, token-set
 * Jaccard ≥ 0.6 on name and description), among those still in force: not archived, not
 * superseded. The closest; ties by id.
 */
export function findSameMemory(entries: ReadonlyMap<string, DirEntry>, type: MemoryType, said: { name: string; description: string }): string | undefined {
  const items = [...entries]
    .filter(([, entry]) => !entry.archived && entry.status !== 'superseded')
    .map(([id, entry]) => ({ id, type: entry.type as string, tokens: entry.tokens ?? memoryTokens(entry) }));
  return bestMatch({ type, tokens: memoryTokens(said) }, items)?.item.id;
}
