import type { MemoryType } from '../../events/memory-kinds.js';
import { DUPLICATE_THRESHOLD, jaccard, memoryTokens } from '../../memories/similarity.js';
import type { RowReader } from '../projector.js';
import { entryKey, rowAt } from './memories-rows.js';
import { postingCount, postingIds } from './token-postings.js';
import type { DirEntry } from './memory-row.js';

/** Whether an entry can be matched: not archived, not superseded (those are also out of the token index). */
export function inForce(entry: Pick<DirEntry, 'archived' | 'status'>): boolean {
  return !entry.archived && entry.status !== 'superseded';
}

/**
 * The memory of a directory that says what a new one says (DESIGN.md: same type, token-set
 * Jaccard ≥ 0.6 on name and description), among those still in force: not archived, not
 * superseded, and not left out by `exclude`. The closest; ties by id.
 *
 * Reads the token counts of what is said, then looks only at the memories named by the rarest few
 * of them (prefix filtering): a memory at Jaccard ≥ t with the k tokens said shares at least
 * m = ⌈t·k⌉ of them, so it misses at most k − m and must hold one of any k − m + 1. A common
 * word ("test", "use") names most of a directory; reading every memory it names made each
 * proposal cost grow with the directory (issue 22). One list more is read (count filtering): of
 * any q lists, such a memory is named by at least q − (k − m), so with q = k − m + 2 only the
 * memories named twice among them are read and measured. The lists are ids in memory; reading
 * and measuring a memory's entry costs far more, and in a large directory the rarest lists
 * still name a memory in sixty, almost none of them twice.
 */
export function findSameMemory(
  rows: RowReader<unknown>,
  dir: string,
  type: MemoryType,
  said: { name: string; description: string },
  exclude?: (entry: DirEntry) => boolean,
): string | undefined {
  const tokens = new Set(memoryTokens(said));
  if (tokens.size === 0) return undefined;
  const counted = [...tokens].map((token) => ({ token, count: postingCount(rows, dir, type, token) }));
  const mustShare = Math.ceil(DUPLICATE_THRESHOLD * tokens.size - 1e-9);
  const lists = Math.min(tokens.size, tokens.size - mustShare + 2);
  // Named by fewer of the lists read than this, a memory shares fewer than mustShare tokens.
  const named = mustShare - (tokens.size - lists);
  const times = new Map<string, number>();
  for (const { token } of counted.sort((a, b) => a.count - b.count).slice(0, lists)) {
    for (const id of postingIds(rows, dir, type, token)) times.set(id, (times.get(id) ?? 0) + 1);
  }
  let best: { id: string; similarity: number } | undefined;
  for (const [id, count] of times) {
    if (count < named) continue;
    const entry = rowAt(rows, entryKey(dir, id));
    if (!entry || !inForce(entry) || entry.type !== type || exclude?.(entry)) continue;
    const similarity = jaccard(tokens, entry.tokens);
    if (similarity === 0 || similarity < DUPLICATE_THRESHOLD) continue;
    if (!best || similarity > best.similarity || (similarity === best.similarity && id < best.id)) best = { id, similarity };
  }
  return best?.id;
}

class NotLoaded {
  constructor(readonly key: string) {}
}

/** findSameMemory over committed rows read one by one (a command, before it records a proposal). */
export async function findSameMemoryIn(
  rows: { get(key: string): Promise<unknown> },
  dir: string,
  type: MemoryType,
  said: { name: string; description: string },
): Promise<string | undefined> {
  const loaded = new Map<string, unknown>();
  const reader: RowReader<unknown> = {
    get(key) {
      if (!loaded.has(key)) throw new NotLoaded(key);
      return loaded.get(key);
    },
  };
  for (;;) {
    try {
      return findSameMemory(reader, dir, type, said);
    } catch (err) {
      if (!(err instanceof NotLoaded)) throw err;
      loaded.set(err.key, await rows.get(err.key));
    }
  }
}
