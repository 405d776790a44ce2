import { z } from 'zod';
import { contentHash } from '../content-hash.js';
import { buildGraphPrompt, GRAPHS_PER_CALL, parseGraphAnswer } from '../distill/graph-backfill.js';
import { MemoryGraphed } from '../events/distill-events.js';
import type { Envelope } from '../events/envelope.js';
import { defineCommand } from './command.js';
import { listMemories } from './memory-lookup.js';

/**
 * `engram graph backfill [--project PATH] [--limit N]`: asks the LLM for the graphs of memories
 * in force that have none, 6 a call, and records each as MemoryGraphed (the memories projection
 * writes its `_graph/` sidecar). Ids derive from the memory and its text, so a run repeated after
 * a crash records each graph once.
 */
export const graphBackfill = defineCommand({
  name: 'graph.backfill',
  access: 'write',
  args: z.object({ project: z.string().optional(), limit: z.number().int().positive().default(60) }),
  async run(engine, args, output) {
    const llm = engine.services.distiller?.deps.llm;
    if (!llm) {
      output.err('no LLM: set ENGRAM_LLM_CMD or put `claude` on PATH (see `engram doctor`)\n');
      return 1;
    }
    const memories = (await listMemories(engine, args.project))
      .filter((memory) => !memory.graph && !memory.archived && memory.status !== 'superseded')
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, args.limit);
    let recorded = 0;
    let failed = 0;
    for (let i = 0; i < memories.length; i += GRAPHS_PER_CALL) {
      const chunk = memories.slice(i, i + GRAPHS_PER_CALL);
      const outcome = await llm.run(buildGraphPrompt(chunk), AbortSignal.timeout(10 * 60_000));
      const parsed = outcome.ok ? parseGraphAnswer(outcome.stdout, chunk.map((memory) => memory.id)) : outcome;
      if (!parsed.ok) {
        failed += chunk.length;
        output.err(`${chunk.length} memories: ${parsed.reason}: ${parsed.detail}\n`);
        continue;
      }
      const events: Envelope[] = chunk.flatMap((memory) => {
        const graph = parsed.graphs.get(memory.id);
        if (!graph) return [];
        return [{
          id: `graphed:${contentHash(`${memory.id}\n${memory.name}\n${memory.body}`)}`,
          type: MemoryGraphed.type,
          schemaVersion: MemoryGraphed.schemaVersion,
          ts: engine.clock.now().toISOString(),
          session: '',
          project: memory.project,
          data: { memoryId: memory.id, graph },
        }];
      });
      recorded += await engine.record(events);
      output.progress(Math.min(i + GRAPHS_PER_CALL, memories.length), memories.length);
    }
    await output.out(`${recorded} graphs recorded of ${memories.length} memories without one${failed > 0 ? `; ${failed} failed` : ''}\n`);
    return failed > 0 && recorded === 0 ? 1 : 0;
  },
});
