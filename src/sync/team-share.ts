import { contentHash } from '../content-hash.js';
import type { Envelope } from '../events/envelope.js';
import type { Reactor } from '../engine/reactor.js';
import { projectMemoryDir } from '../paths.js';
import { memoriesProjector } from '../projections/memories/memories.js';
import { committedRow, entriesOf, memoryKey } from '../projections/memories/memories-rows.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { TeamProject } from './project-identity.js';

/** Memories a teammate shared (TeamMemoryReceived): theirs, never shared again as this machine's. */
export const TEAM_MEMORY_PREFIX = 'team:';

/**
 * The team scope's reactor: when a round holds a memory event of a project opted in (a
 * correction's prompt, a proposal, a reinforcement, an edit, an archive…), it looks at that
 * project's memories as the memories projection now holds them and appends a MemoryShared for
 * each one whose state was not shared yet. The event carries the memory itself (name,
 * description, type, body, active or archived) and the project's team id, never the local path,
 * the session, or the prompt it was learned from; its id is derived from the memory and its last
 * change, so a round done twice shares it once. Provisional memories (not yet confirmed here) and
 * teammates' memories stay unshared. The forwarder sends only these events in the team scope.
 */
export function teamShareReactor(teams: readonly TeamProject[], sharedBy: string): Reactor {
  const handled = new Set<string>(memoriesProjector.handles);
  handled.delete('TeamMemoryReceived');
  const byDir = new Map(teams.map((team) => [team.dir, team]));
  return {
    name: 'team-share',
    reads: ['memories'],
    async react(ctx) {
      const touched = new Set<TeamProject>();
      for await (const batch of ctx.log.read({ from: ctx.from, to: ctx.to })) {
        for (const event of batch) {
          const team = byDir.get(event.project);
          if (team && handled.has(event.type)) touched.add(team);
        }
      }
      if (touched.size === 0) return [];
      const rows = ctx.runner.rowsOf('memories');
      const out: Envelope[] = [];
      for (const team of touched) {
        for (const entry of await entriesOf((prefix) => rows.entries(prefix), projectMemoryDir(team.dir))) {
          ctx.signal.throwIfAborted();
          if (entry.id.startsWith(TEAM_MEMORY_PREFIX) || entry.status === 'provisional') continue;
          const memory = await committedRow(rows, memoryKey(entry.id));
          if (memory) out.push(memoryShared(team, memory, sharedBy));
        }
      }
      const present = await ctx.log.has(out.map((event) => event.id));
      return out.filter((_, i) => !present[i]);
    },
  };
}

function memoryShared(team: TeamProject, memory: MemoryRow, sharedBy: string): Envelope {
  const data = {
    projectId: team.id,
    memoryId: memory.id,
    name: memory.name,
    description: memory.description,
    type: memory.type,
    ...(memory.tier ? { tier: memory.tier } : {}),
    body: memory.body,
    state: memory.archived || memory.status === 'superseded' ? 'archived' : 'active',
    sharedBy,
  };
  return {
    // The memory as it stands: the same state shared twice is one event.
    id: `shared:${contentHash(JSON.stringify([team.id, memory.id, memory.modified, data]))}`,
    type: 'MemoryShared',
    schemaVersion: 1,
    // Its last change's time, not the clock: a round done again makes the very same event.
    ts: memory.modified,
    session: '',
    // No local path leaves: the project is named by data.projectId.
    project: '',
    data,
  };
}
