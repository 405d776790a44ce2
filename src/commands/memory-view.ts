import { strength } from '../memories/scores.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { Engine } from '../engine/engine.js';

/** A memory as the MCP server, `get_memory` and the viewer show it: what its file says, where it is, how strong it is now. */
export interface MemoryView {
  id: string;
  name: string;
  description: string;
  type: string;
  tier: string | undefined;
  /** `archived` while its file is in `_archive/`; else provisional, active or superseded. */
  status: string;
  strength: number;
  confidence: number;
  reinforced: number;
  pinned: boolean;
  /** '' for a global memory. */
  project: string;
  /** The memory file's absolute path. */
  file: string;
  created: string;
  modified: string;
  origin: string;
  originSession: string | undefined;
  archived: { at: string; reason: string } | undefined;
  supersededBy: string | undefined;
  body: string;
}

export function memoryView(engine: Pick<Engine, 'paths' | 'clock'>, memory: MemoryRow): MemoryView {
  const now = engine.clock.now();
  return {
    id: memory.id,
    name: memory.name,
    description: memory.description,
    type: memory.type,
    tier: memory.tier,
    status: memory.archived ? 'archived' : memory.status,
    strength: Math.round(strength({ name: memory.name, type: memory.type, tier: memory.tier, confidence: memory.confidence, lastReinforced: memory.lastReinforced, created: memory.created }, now) * 1000) / 1000,
    confidence: memory.confidence,
    reinforced: memory.reinforced,
    pinned: memory.pinned,
    project: memory.project,
    file: memoryFilePath(engine, memory),
    created: memory.created,
    modified: memory.modified,
    origin: memory.origin,
    originSession: memory.originSession,
    archived: memory.archived ? { ...memory.archived } : undefined,
    supersededBy: memory.supersededBy,
    body: memory.body,
  };
}

/** Where a memory's file is now: its directory, or its `_archive/` while archived. */
export function memoryFilePath(engine: Pick<Engine, 'paths'>, memory: MemoryRow): string {
  return `${engine.paths.claude}/${memory.dir}/${memory.archived ? '_archive/' : ''}${memory.file}`;
}
