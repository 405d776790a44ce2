import { HELD_NOTE, heldForUser } from '../distill/addresses-agent.js';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { MemoryForgotten, MemoryPinned, MemoryReinforced, MemoryRestored, MemoryUnpinned } from '../events/memory-events.js';
import { strength } from '../memories/scores.js';
import { renderMemoryFile } from '../memories/memory-file.js';
import { memoryFileContent } from '../projections/memories/materialize-memories.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { Engine } from '../engine/engine.js';
import { defineCommand } from './command.js';
import { findMemory, listMemories } from './memory-lookup.js';
import { memoryProvenance } from './memory-provenance.js';

const scope = { project: z.string().optional(), all: z.boolean().default(false) };

/** `engram memories list [--project PATH] [--all] [--json]`: name, type, status, strength, file. */
export const memoriesList = defineCommand({
  name: 'memories.list',
  access: 'read',
  args: z.object({ ...scope, json: z.boolean().default(false) }),
  async run(engine, args, output) {
    const now = engine.clock.now();
    const rows = (await listMemories(engine, args.all ? undefined : args.project))
      .map((memory) => ({
        name: memory.name,
        type: memory.type,
        status: memory.archived ? 'archived' : memory.status,
        strength: Math.round(strength({ name: memory.name, type: memory.type, tier: memory.tier, confidence: memory.confidence, lastReinforced: memory.lastReinforced, created: memory.created }, now) * 1000) / 1000,
        pinned: memory.pinned,
        // Provisional because it speaks to the agent and the user has not said so (addresses-agent.ts).
        ...(isHeld(memory) ? { held: true } : {}),
        project: memory.project,
        file: `${engine.paths.claude}/${memory.dir}/${memory.archived ? '_archive/' : ''}${memory.file}`,
      }))
      .sort((a, b) => b.strength - a.strength || (a.name < b.name ? -1 : 1));
    if (args.json) {
      await output.out(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    if (rows.length === 0) {
      // From a directory that has none, say where there are some rather than "none at all".
      const elsewhere = args.all ? [] : await listMemories(engine, undefined);
      const byProject = new Map<string, number>();
      for (const memory of elsewhere) if (memory.project !== '') byProject.set(memory.project, (byProject.get(memory.project) ?? 0) + 1);
      if (byProject.size === 0) await output.out('no memories yet\n');
      else {
        const listed = [...byProject].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([project, n]) => `  ${project} (${n})`);
        await output.out(`no memories for ${args.project} yet; ${byProject.size} other project(s) have some:\n${listed.join('\n')}\n\`engram memories list --project PATH\` or \`--all\` lists them\n`);
      }
      return 0;
    }
    // Names whole: a list that cuts them cannot be copied into `memories show NAME`.
    const width = Math.max(4, ...rows.map((r) => r.name.length));
    const statusWidth = Math.max(6, ...rows.map((r) => r.status.length + 1));
    const line = (cells: string[]) => `${cells[0]!.padEnd(width)}  ${cells[1]!.padEnd(9)} ${cells[2]!.padEnd(statusWidth)} ${cells[3]!.padStart(8)}  ${cells[4]}`;
    const lines = [line(['NAME', 'TYPE', 'STATUS', 'STRENGTH', 'FILE']), ...rows.map((r) => line([r.name, r.type, r.pinned ? `${r.status}*` : r.status, r.strength.toFixed(2), `${r.file}${r.held ? `  (${HELD_NOTE})` : ''}`]))];
    if (rows.some((r) => r.pinned)) lines.push('* pinned: kept, whatever its strength, until unpinned');
    await output.out(`${lines.join('\n')}\n`);
    return 0;
  },
});

/** `engram memories show NAME [--history]`: the memory as its file shows it, where that file is, and with `--history` every event that made or changed it. */
export const memoriesShow = defineCommand({
  name: 'memories.show',
  access: 'read',
  args: z.object({ query: z.string().min(1), project: z.string().optional(), history: z.boolean().default(false) }),
  async run(engine, args, output) {
    const memory = await findMemory(engine, args.query, args.project);
    await output.out(`# ${locate(engine, memory)}\n${isHeld(memory) ? `# provisional, ${HELD_NOTE}\n` : ''}${renderMemoryFile(memoryFileContent(memory))}`);
    if (args.history) {
      const { steps } = await memoryProvenance(engine, memory, { events: false });
      const lines = steps.map((s) => `${String(s.seq).padStart(8)}  ${s.ts}  ${s.action.padEnd(12)} ${s.type}${s.by ? ` by ${s.by}` : ''}${s.session ? ` in session ${s.session}` : ''}${s.detail ? `: ${s.detail}` : ''}`);
      await output.out(`\n# history (seq, time, what, event)\n${lines.join('\n')}\n`);
    }
    return 0;
  },
});

const change = z.object({ query: z.string().min(1), project: z.string().optional(), reason: z.string().max(500).optional() });

export const memoriesPin = memoryChange('memories.pin', (memory) => (memory.pinned ? undefined : { definition: MemoryPinned, data: { memoryId: memory.id } }), 'pinned');
export const memoriesUnpin = memoryChange('memories.unpin', (memory) => (memory.pinned ? { definition: MemoryUnpinned, data: { memoryId: memory.id } } : undefined), 'unpinned');
export const memoriesForget = memoryChange(
  'memories.forget',
  (memory, reason) => (memory.archived ? undefined : { definition: MemoryForgotten, data: { memoryId: memory.id, reason: reason ?? 'asked to forget' } }),
  'forgotten (moved to _archive/, nothing deleted)',
);
export const memoriesRestore = memoryChange(
  'memories.restore',
  (memory) => (memory.archived || memory.status === 'superseded' ? { definition: MemoryRestored, data: { memoryId: memory.id } } : undefined),
  'restored',
);

/** The user says it again: confidence +0.1 (at most 1), reinforced +1, a provisional memory becomes active. */
export const memoriesReinforce = memoryChange(
  'memories.reinforce',
  (memory) => (memory.archived ? undefined : { definition: MemoryReinforced, data: { memoryId: memory.id, by: 'user' } }),
  'reinforced',
);

type Definition = typeof MemoryPinned | typeof MemoryUnpinned | typeof MemoryForgotten | typeof MemoryRestored | typeof MemoryReinforced;

/** A command that records one event about the memory a user names, then shows where it is now. */
function memoryChange(name: string, make: (memory: MemoryRow, reason: string | undefined) => { definition: Definition; data: unknown } | undefined, done: string) {
  return defineCommand({
    name,
    access: 'write',
    args: change,
    async run(engine, args, output) {
      const memory = await findMemory(engine, args.query, args.project);
      const event = make(memory, args.reason);
      if (!event) {
        await output.out(`${memory.name}: nothing to change\n`);
        return 0;
      }
      await engine.record([
        {
          id: engine.newEventId(),
          type: event.definition.type,
          schemaVersion: event.definition.schemaVersion,
          ts: engine.clock.now().toISOString(),
          session: '',
          project: memory.project,
          data: event.data,
        },
      ]);
      const after = await findMemory(engine, memory.id, undefined).catch(() => {
        throw new EngramError('PROJECTOR_FAILED', `the memories projection did not take the change to ${memory.name}`);
      });
      await output.out(`${after.name}: ${done}; ${locate(engine, after)}\n`);
      return 0;
    },
  });
}

function locate(engine: Engine, memory: MemoryRow): string {
  return `${engine.paths.claude}/${memory.dir}/${memory.archived ? '_archive/' : ''}${memory.file}`;
}

function isHeld(memory: MemoryRow): boolean {
  return memory.status === 'provisional' && !memory.archived && heldForUser(memory);
}
