import type { MemoryRow } from '../memories/memory-row.js';

/**
 * What a memory's vector is made from: its name, its description and its body, then the names
 * of the entities it is about when its graph sidecar names any. Who and what a memory is about
 * moved retrieval a lot in the measurements DESIGN.md "Recall" cites, so the name comes first.
 */
export function indexedText(row: Pick<MemoryRow, 'name' | 'description' | 'body'>, entities: readonly string[] = []): string {
  const parts = [row.name.trim(), row.description.trim(), row.body.trim()];
  if (entities.length > 0) parts.push(entities.join(', '));
  return parts.filter((part) => part.length > 0).join('\n');
}
