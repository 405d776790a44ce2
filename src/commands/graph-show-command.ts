import { z } from 'zod';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../paths.js';
import { buildGraphIndex } from '../projections/graph/graph-index.js';
import { graphKey } from '../projections/graph/graph.js';
import type { GraphDirRow } from '../projections/graph/graph-row.js';
import { findEntity, type FoundEntity } from '../recall/find-entity.js';
import { loadedGraph, type LoadedGraph } from '../recall/loaded-graph.js';
import type { Engine } from '../engine/engine.js';
import { defineCommand } from './command.js';

/**
 * `engram graph ENTITY [--project PATH] [--json]`: the entity as the project's and the global
 * graph know it (found by name, alias, plural or a path's base name), its type, aliases,
 * relations each way, and the memories in force that name it, by absolute path.
 */
export const graphShow = defineCommand({
  name: 'graph.show',
  access: 'read',
  args: z.object({ entity: z.string().min(1).max(500), project: z.string(), json: z.boolean().default(false) }),
  async run(engine, args, output) {
    const graphs = await graphsOf(engine, args.project);
    const found = findEntity(graphs, args.entity);
    if (found.length === 0) {
      // Not a usage error: the name is fine, the graph just does not hold it (yet).
      output.err(`no memory in force names ${JSON.stringify(args.entity)} (in ${args.project}'s memories or the global ones); \`engram graph backfill\` asks the LLM for the graphs of memories without one\n`);
      return 1;
    }
    const shown = found.map((hit) => describe(engine, hit));
    if (args.json) {
      await output.out(`${JSON.stringify(shown, null, 2)}\n`);
      return 0;
    }
    await output.out(`${shown.map(render).join('\n')}`);
    return 0;
  },
});

async function graphsOf(engine: Engine, project: string): Promise<LoadedGraph[]> {
  const rows = engine.runner.rowsOf('graph');
  const graphs: LoadedGraph[] = [];
  for (const dir of [projectMemoryDir(project), GLOBAL_MEMORY_DIR]) {
    const row = (await rows.get(graphKey(dir))) as GraphDirRow | undefined;
    if (row) graphs.push(loadedGraph(buildGraphIndex(row)));
  }
  return graphs;
}

interface Shown {
  name: string;
  type: string;
  aliases: string[];
  hub: boolean;
  project: string;
  out: Array<{ rel: string; entity: string }>;
  in: Array<{ rel: string; entity: string }>;
  memories: Array<{ name: string; file: string }>;
}

function describe(engine: Engine, { graph, entity }: FoundEntity): Shown {
  const { index } = graph;
  const other = ([rel, position]: [string, number]) => ({ rel, entity: index.entities[position]!.name });
  return {
    name: entity.name,
    type: entity.type,
    aliases: entity.aliases,
    hub: entity.hub,
    project: index.project,
    out: entity.out.map(other),
    in: entity.in.map(other),
    memories: entity.memories.map((position) => {
      const memory = index.memories[position]!;
      return { name: memory.name, file: `${engine.paths.claude}/${index.dir}/${memory.file}` };
    }),
  };
}

function render(shown: Shown): string {
  const lines = [`${shown.name} (${shown.type})${shown.hub ? ', a hub' : ''} — ${shown.project === '' ? 'global memories' : shown.project}`];
  if (shown.aliases.length > 0) lines.push(`  aliases: ${shown.aliases.join(', ')}`);
  for (const relation of shown.out) lines.push(`  ${shown.name} ${relation.rel} ${relation.entity}`);
  for (const relation of shown.in) lines.push(`  ${relation.entity} ${relation.rel} ${shown.name}`);
  lines.push(`  named in ${shown.memories.length} ${shown.memories.length === 1 ? 'memory' : 'memories'}:`);
  for (const memory of shown.memories) lines.push(`    ${memory.file}  ${memory.name}`);
  return `${lines.join('\n')}\n`;
}
