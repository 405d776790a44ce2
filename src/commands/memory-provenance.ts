import { EngramError } from '../errors.js';
import type { StoredEnvelope } from '../events/envelope.js';
import { provenanceHeadKey, provenancePageKey, PROVENANCE_PAGE_SIZE, type ProvenanceHead, type ProvenanceStep } from '../projections/provenance/provenance.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { Engine } from '../engine/engine.js';
import type { CommittedRows } from '../engine/projection-runner.js';
import { findMemory } from './memory-lookup.js';
import { memoryView, type MemoryView } from './memory-view.js';

/** One step of a memory's history with the event that made it, as the log holds it (upcast to its current schemaVersion). */
export interface ProvenanceEntry extends ProvenanceStep {
  event: { id: string; type: string; schemaVersion: number; ts: string; session: string; project: string; data: unknown } | undefined;
}

export interface MemoryProvenance {
  memory: MemoryView;
  /** How many events touched it in all. */
  total: number;
  /** Oldest first: the newest `limit` steps (all of them by default). */
  steps: ProvenanceEntry[];
}

export interface ProvenanceOptions {
  /** The memory's project, which wins when a name fits memories of several. Default: none. */
  project?: string;
  /** At most this many steps, the newest. Default: all. */
  limit?: number;
  /** Read each step's event from the log (its data: the prompt, the LLM's answer, the reason). Default true. */
  events?: boolean;
}

/**
 * Why engram believes what a memory says: every event that made or changed it, each with its
 * seq, type, time, session and what it did, and the event itself read from the log by its seq.
 * `query` is an id, a file name or a name (see findMemory). Costs the provenance rows of this one
 * memory and one read per step, never a scan of the log. Runs wherever the engine is: the
 * worker's socket op, the viewer inside the worker, a command in-process.
 */
export async function memoryProvenance(engine: Engine, query: string | MemoryRow, options: ProvenanceOptions = {}): Promise<MemoryProvenance> {
  const memory = typeof query === 'string' ? await findMemory(engine, query, options.project) : query;
  const { total, steps } = await provenanceSteps(engine.runner.rowsOf('provenance'), memory, options.limit);
  const entries: ProvenanceEntry[] = [];
  for (const step of steps) entries.push({ ...step, event: options.events === false ? undefined : await eventAt(engine, step.seq) });
  return { memory: memoryView(engine, memory), total, steps: entries };
}

/**
 * A memory's steps from provenance rows, oldest first: the newest `limit` (default all) and how
 * many there are in all. The rows may be the live ones or a replay's (the viewer's as-of pages).
 */
export async function provenanceSteps(rows: CommittedRows, memory: Pick<MemoryRow, 'id' | 'name'>, limit?: number): Promise<{ total: number; steps: ProvenanceStep[] }> {
  const head = (await rows.get(provenanceHeadKey(memory.id))) as ProvenanceHead | undefined;
  const total = head?.steps ?? 0;
  const first = limit === undefined ? 0 : Math.max(0, total - limit);
  const steps: ProvenanceStep[] = [];
  for (let page = Math.floor(first / PROVENANCE_PAGE_SIZE); page * PROVENANCE_PAGE_SIZE < total; page++) {
    const found = (await rows.get(provenancePageKey(memory.id, page))) as readonly ProvenanceStep[] | undefined;
    if (!found) throw new EngramError('STATE_CORRUPT', `the provenance of ${memory.name} lacks its page ${page}; \`engram rebuild --only provenance\` makes it again`);
    found.forEach((step, i) => {
      if (page * PROVENANCE_PAGE_SIZE + i >= first) steps.push(step);
    });
  }
  return { total, steps };
}

async function eventAt(engine: Engine, seq: number): Promise<ProvenanceEntry['event']> {
  for await (const batch of engine.log.read({ from: seq, to: seq, batchSize: 1 })) {
    const stored: StoredEnvelope | undefined = batch[0];
    if (!stored) break;
    // An event this build cannot lift is shown as stored rather than hiding the step.
    let data: unknown = stored.data;
    let schemaVersion = stored.schemaVersion;
    try {
      const read = engine.catalog.read(stored);
      data = read.data;
      schemaVersion = read.schemaVersion;
    } catch {
      // kept as stored
    }
    return { id: stored.id, type: stored.type, schemaVersion, ts: stored.ts, session: stored.session, project: stored.project, data };
  }
  return undefined;
}
