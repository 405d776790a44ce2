import type { MemoryRow } from '../memories/memory-row.js';

/**
 * What a memory's vector is made from: its name, its description and its body, then the names
 * of the entities its graph (the distiller's, written as its `_graph/` sidecar) says it is
 * about. Who and what a memory is about moved retrieval a lot in the measurements DESIGN.md
 * "Recall" cites, so the name comes first and the entities are named outright.
 */
export function indexedText(row: Pick<MemoryRow, 'name' | 'description' | 'body' | 'graph'>): string {
  const parts = [row.name.trim(), row.description.trim(), row.body.trim()];
  const entities = [...new Set((row.graph?.entities ?? []).map((entity) => entity.name.trim()).filter((name) => name.length > 0))];
  if (entities.length > 0) parts.push(entities.join(', '));
  return parts.filter((part) => part.length > 0).join('\n');
}
