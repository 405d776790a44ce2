import { isMemoryKey, memoriesProjector, memoryIdOf, type MemoriesRow } from '../memories/memories.js';
import type { MemoryRow } from '../memories/memory-row.js';
import { defineProjector, type RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { provenanceStep, type ProvenanceStep } from './provenance-step.js';

/** Bump when the provenance rows change for the same memories rows. */
const PROVENANCE_VERSION = 1;

/**
 * Steps per page row. A memory reinforced a thousand times appends to its last page, never
 * copies its whole history, so recording a step costs the same however old the memory is.
 */
export const PROVENANCE_PAGE_SIZE = 32;

const HEAD = 'provenance:';
const PAGE = 'provenance-page:';
export const provenanceHeadKey = (memoryId: string): string => HEAD + memoryId;
/** Page `n` (from 0) of a memory's steps. */
export const provenancePageKey = (memoryId: string, n: number): string => `${PAGE}${n}:${memoryId}`;

/** How many steps a memory has; its pages hold them in log order. */
export interface ProvenanceHead {
  readonly memoryId: string;
  readonly steps: number;
}

export type ProvenanceRows = MemoriesRow | ProvenanceHead | readonly ProvenanceStep[];

/**
 * Provenance: for each memory, every event that made or changed it (its seq, type, time,
 * session and what it did), so "why does engram believe this?" is one look-up and never a scan
 * of the log. The memories projection's own rows run in this lane (its `evolve`, so which memory
 * an event touched — a proposal that reinforced another, a distillation's candidates — is decided
 * in one place, as the graph lane does); a step is recorded for each memory row the event changed.
 * Rows only: nothing is written to disk but the rows.
 */
export const provenanceProjector = defineProjector<ProvenanceRows>({
  name: 'provenance',
  projectorVersion: memoriesProjector.projectorVersion * 1000 + PROVENANCE_VERSION,
  handles: memoriesProjector.handles,
  evolve(state, event) {
    const changes = memoriesProjector.evolve(state as RowReader<MemoriesRow>, event) as RowChange<ProvenanceRows>[];
    // Most prompts teach nothing: no memory changed, so there is no step to record.
    if (changes.length === 0) return changes;
    // The last row each memory was given by this event (the promotion gate may touch one twice).
    const after = new Map<string, MemoryRow>();
    for (const change of changes) if (isMemoryKey(change.key) && change.row !== null) after.set(change.key, change.row as MemoryRow);
    const steps: RowChange<ProvenanceRows>[] = [];
    for (const [key, row] of after) {
      const before = state.get(key) as MemoryRow | undefined;
      steps.push(...appendStep(state, memoryIdOf(key), provenanceStep(event, before, row)));
    }
    return [...changes, ...steps];
  },
});

function appendStep(state: RowReader<ProvenanceRows>, memoryId: string, step: ProvenanceStep): RowChange<ProvenanceRows>[] {
  const head = (state.get(provenanceHeadKey(memoryId)) as ProvenanceHead | undefined) ?? { memoryId, steps: 0 };
  const page = Math.floor(head.steps / PROVENANCE_PAGE_SIZE);
  const current = head.steps % PROVENANCE_PAGE_SIZE === 0 ? [] : ((state.get(provenancePageKey(memoryId, page)) as readonly ProvenanceStep[] | undefined) ?? []);
  return [
    rowChange<ProvenanceRows>(provenanceHeadKey(memoryId), { memoryId, steps: head.steps + 1 }),
    rowChange<ProvenanceRows>(provenancePageKey(memoryId, page), [...current, step]),
  ];
}

export type { ProvenanceStep } from './provenance-step.js';
