import type { RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { postingKey, rowAt, tokenKey, type MemoriesRow } from './memories-rows.js';

/**
 * The near-duplicate check's index: for a directory, a type and a token, the ids of the memories
 * in force that say it. A common word names most of a directory, so its ids are kept in chunks of
 * at most POSTING_CHUNK (`posting:` rows) under a head that counts them (`token:`): adding or
 * removing a memory copies one chunk, never the whole list (a single list made each proposal
 * cost grow with the directory, issue 22). Each memory's entry remembers which chunk holds it.
 */

export const POSTING_CHUNK = 64;

/** The id added to the token's last chunk (a new one when full): the rows changed, and the chunk. */
export function addPosting(state: RowReader<unknown>, dir: string, type: string, token: string, id: string): { changes: RowChange<MemoriesRow>[]; chunk: number } {
  const head = rowAt(state, tokenKey(dir, type, token)) ?? { count: 0, last: 0 };
  const ids = rowAt(state, postingKey(dir, type, token, head.last)) ?? [];
  const chunk = ids.length >= POSTING_CHUNK ? head.last + 1 : head.last;
  const into = chunk === head.last ? ids : [];
  return {
    chunk,
    changes: [
      rowChange<MemoriesRow>(tokenKey(dir, type, token), { count: head.count + 1, last: chunk }),
      rowChange<MemoriesRow>(postingKey(dir, type, token, chunk), [...into, id]),
    ],
  };
}

/**
 * The id taken out of the chunk that holds it (`chunk`, or each in turn when not known); an
 * empty chunk and a head that counts none are deleted.
 */
export function removePosting(state: RowReader<unknown>, dir: string, type: string, token: string, id: string, chunk: number | undefined): RowChange<MemoriesRow>[] {
  const head = rowAt(state, tokenKey(dir, type, token));
  if (head === undefined) return [];
  const candidates = chunk === undefined ? Array.from({ length: head.last + 1 }, (_, i) => i) : [chunk];
  for (const at of candidates) {
    const ids = rowAt(state, postingKey(dir, type, token, at));
    if (!ids?.includes(id)) continue;
    const left = ids.filter((other) => other !== id);
    return [
      rowChange<MemoriesRow>(tokenKey(dir, type, token), head.count > 1 ? { count: head.count - 1, last: head.last } : null),
      rowChange<MemoriesRow>(postingKey(dir, type, token, at), left.length > 0 ? left : null),
    ];
  }
  return [];
}

/** How many memories in force of `type` say `token` in `dir`. */
export function postingCount(rows: RowReader<unknown>, dir: string, type: string, token: string): number {
  return rowAt(rows, tokenKey(dir, type, token))?.count ?? 0;
}

/** Their ids, chunk by chunk. */
export function postingIds(rows: RowReader<unknown>, dir: string, type: string, token: string): string[] {
  const head = rowAt(rows, tokenKey(dir, type, token));
  if (head === undefined) return [];
  const ids: string[] = [];
  for (let at = 0; at <= head.last; at++) ids.push(...(rowAt(rows, postingKey(dir, type, token, at)) ?? []));
  return ids;
}
