import { EngramError } from '../errors.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { Engine } from '../engine/engine.js';
import { aliasKey, committedRow, memoryKey, rowsOfKind } from '../projections/memories/memories-rows.js';

/** Every memory the projection holds (its committed rows), of one project and the global ones, or all. */
export async function listMemories(engine: Engine, project: string | undefined): Promise<MemoryRow[]> {
  const found: MemoryRow[] = [];
  const rows = engine.runner.rowsOf('memories');
  for await (const [, memory] of rowsOfKind((prefix) => rows.entries(prefix), 'mem')) {
    if (project === undefined || memory.project === project || memory.project === '') found.push(memory);
  }
  return found;
}

/**
 * The memory a user means by `query`: its id, its file name (with or without `.md`) or path, or its name
 * (any case), the project's own before a global one. A query that fits several is refused with
 * their files listed, never guessed.
 */
export async function findMemory(engine: Engine, query: string, project: string | undefined): Promise<MemoryRow> {
  const memories = await listMemories(engine, undefined);
  const wanted = query.trim().toLowerCase();
  const fits = (memory: MemoryRow) =>
    memory.id === query || memory.file.toLowerCase() === wanted || memory.file.toLowerCase() === `${wanted}.md` || memory.name.toLowerCase() === wanted ||
    // Its file's whole path, where it is or in `_archive/` (the MCP server's get_memory passes what the agent read).
    query === `${engine.paths.claude}/${memory.dir}/${memory.file}` || query === `${engine.paths.claude}/${memory.dir}/_archive/${memory.file}`;
  let candidates = memories.filter(fits);
  if (candidates.length > 1 && project !== undefined) {
    const own = candidates.filter((memory) => memory.project === project);
    candidates = own.length > 0 ? own : candidates.filter((memory) => memory.project === '');
  }
  if (candidates.length === 1) return candidates[0]!;
  // An id the memory was known by before an earlier telling of the same lesson took it over (memory-changes.ts).
  if (candidates.length === 0) {
    const taken = await heldUnder(engine, query);
    if (taken) return taken;
  }
  if (candidates.length === 0) throw new EngramError('USAGE', `no memory is called ${JSON.stringify(query)}; \`engram memories list\` shows them`);
  throw new EngramError('USAGE', `${candidates.length} memories are called ${JSON.stringify(query)}: ${candidates.map((m) => `${m.dir}/${m.file}`).join(', ')}; name one by its file`);
}

/** The memory an old id now stands for, following its alias rows; undefined when `id` is no alias. */
async function heldUnder(engine: Engine, id: string): Promise<MemoryRow | undefined> {
  const rows = engine.runner.rowsOf('memories');
  for (let hops = 0; hops < 32; hops++) {
    const next = await committedRow(rows, aliasKey(id));
    if (next === undefined) return undefined;
    const memory = await committedRow(rows, memoryKey(next));
    if (memory) return memory;
    id = next;
  }
  return undefined;
}
