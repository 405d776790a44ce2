import { halfLifeDays } from '../../memories/scores.js';
import type { YamlValue } from '../../memories/yaml-values.js';
import type { LexicalDoc } from '../../indexes/bm25.js';
import type { MemoryRow } from '../memories/memory-row.js';
import { toolKinds } from '../../indexes/tool-kinds.js';

/**
 * Frontmatter fields (engram does not know them; Claude Code and people write them) that say who
 * or what a memory is about, indexed with the entities: a keyword or alias added when a memory
 * is written is what lets a prompt that shares no word with its text still find it.
 */
const ABOUT_FIELDS: ReadonlySet<string> = new Set(['tags', 'keywords', 'aliases', 'entities', 'related']);
/** Most words of that kind a memory contributes: a runaway list does not drown its text. */
const ABOUT_LIMIT = 50;

/** Whether recall may ever return it: active, not archived (provisional and superseded never). */
export function isRecallable(row: Pick<MemoryRow, 'status' | 'archived'>): boolean {
  return row.status === 'active' && row.archived === undefined;
}

/** What the lexical index reads of a memory: a row, or a memory file and its sidecar (the evaluation). */
export type RecallSource = Pick<MemoryRow, 'id' | 'file' | 'name' | 'description' | 'body' | 'type' | 'tier' | 'confidence' | 'lastReinforced' | 'extra' | 'graph'>;

export function recallDoc(row: RecallSource): LexicalDoc {
  const halfLife = halfLifeDays(row);
  return {
    id: row.id,
    file: row.file,
    name: row.name,
    description: row.description,
    body: row.body,
    entities: [...aboutWords(row), ...toolKinds(`${row.name}\n${row.description}\n${row.body}`)],
    confidence: row.confidence,
    lastReinforced: row.lastReinforced,
    halfLifeDays: Number.isFinite(halfLife) ? halfLife : null,
  };
}

/** The entities its graph sidecar names, then its keywords, tags and aliases (then, in recallDoc, the kinds of tools it names). */
function aboutWords(row: RecallSource): string[] {
  const words: string[] = (row.graph?.entities ?? []).map((entity) => entity.name);
  const add = (value: YamlValue) => {
    if (words.length >= ABOUT_LIMIT + (row.graph?.entities.length ?? 0)) return;
    if (typeof value === 'string') words.push(value.replace(/^\[\[|\]\]$/g, ''));
    else if (Array.isArray(value)) value.forEach(add);
  };
  for (const field of [...row.extra.top, ...row.extra.metadata]) if (ABOUT_FIELDS.has(field.key.toLowerCase())) add(field.value);
  return words;
}
