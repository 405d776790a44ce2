import { memoryKey } from '../projections/memories/memories.js';
import type { RecalledMemory } from '../recall/recall.js';
import type { Recaller } from '../recall/recaller.js';
import type { Engine } from '../engine/engine.js';
import { memoryView, type MemoryView } from './memory-view.js';
import { committedRow } from '../projections/memories/memories-rows.js';

export interface SearchRequest {
  text: string;
  /** The directory the question is about; '' for global memories only. */
  project: string;
  /** At most this many. Default DEFAULT_SEARCH_LIMIT (3, the recall cut's). */
  limit?: number;
}

export const DEFAULT_SEARCH_LIMIT = 3;

/** A recalled memory, ranked as recall ranks it, with the memory itself (undefined: its row is gone since the index was written). */
export interface SearchHit extends Omit<RecalledMemory, 'signals'> {
  signals: string[];
  memory: MemoryView | undefined;
}

/**
 * The MCP server's `search_memories`: recall's ranking itself (`Recaller.ask` with `all`, as
 * `engram query --all` runs it: the ranking the prompt hook gates, without the gate, so a memory
 * sharing a word with the question is found even when the hook would inject nothing), each
 * memory completed from the memories projection's committed row (type, status, strength, body).
 * Also `problems`: signals that failed and were left out.
 */
export async function searchMemories(engine: Engine, recaller: Recaller, request: SearchRequest): Promise<{ hits: SearchHit[]; problems: string[] }> {
  const result = await recaller.ask({ text: request.text, project: request.project, now: engine.clock.now(), all: true, limit: request.limit ?? DEFAULT_SEARCH_LIMIT });
  const rows = engine.runner.rowsOf('memories');
  const hits: SearchHit[] = [];
  for (const recalled of result.memories) {
    const row = await committedRow(rows, memoryKey(recalled.id));
    hits.push({ ...recalled, signals: [...recalled.signals], memory: row ? memoryView(engine, row) : undefined });
  }
  return { hits, problems: result.problems };
}
