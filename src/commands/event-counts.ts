import { countsByType, rejectedInputsKey, type RejectedInputs } from '../projections/counts.js';
import type { Engine } from '../engine/engine.js';

export interface EventCounts {
  total: number;
  byType: Record<string, number>;
  rejectedInputs: RejectedInputs['latest'];
}

/**
 * Events by type and the latest rejected hook inputs: the counts projection's rows, plus the
 * events it has not folded yet read from the log. Costs what the projection is behind, never
 * the whole log, and is exact whatever the projection's state.
 */
export async function eventCounts(engine: Engine): Promise<EventCounts> {
  const rows: Array<[string, unknown]> = [];
  for await (const entry of engine.runner.rowsOf('counts').entries()) rows.push(entry);
  const status = engine.runner.status().find((s) => s.name === 'counts');
  const upTo = rows.length > 0 && status ? status.seq : 0;
  const byType = upTo > 0 ? countsByType(rows) : {};
  let latest = upTo > 0 ? [...((rows.find(([key]) => key === rejectedInputsKey)?.[1] as RejectedInputs | undefined)?.latest ?? [])] : [];
  for await (const batch of engine.log.read({ from: upTo + 1, batchSize: 2000 })) {
    for (const event of batch) {
      byType[event.type] = (byType[event.type] ?? 0) + 1;
      if (event.type !== 'HookInputRejected') continue;
      const data = event.data as { hook?: unknown; reason?: unknown };
      latest = [...latest, { seq: event.seq, ts: event.ts, hook: String(data.hook ?? '?'), reason: String(data.reason ?? '') }].slice(-3);
    }
  }
  const sorted = Object.fromEntries(Object.entries(byType).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { total: Object.values(sorted).reduce((sum, n) => sum + n, 0), byType: sorted, rejectedInputs: latest };
}
