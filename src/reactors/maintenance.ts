import type { Clock } from '../clock.js';
import type { Envelope } from '../events/envelope.js';
import type { HygieneRow, MemoryRow } from '../projections/memories/memory-row.js';
import type { ProjectionRunner } from '../engine/projection-runner.js';
import type { Reactor } from '../engine/reactor.js';
import { planMaintenance, type MaintenancePlan } from './maintenance-plan.js';
import { checkMemories, type CheckOptions } from './memory-checks.js';
import { MAINTAINED, committedRow, rowsOfKind } from '../projections/memories/memories-rows.js';

export interface MaintenanceOptions {
  /** How long between two ticks the worker runs by itself. Default one day. */
  everyMs?: number;
}

/**
 * The maintenance tick as a reactor: at most once per `everyMs` of the injected clock (so
 * `ENGRAM_NOW` ages memories in tests and replays), it scores every memory, checks their claims,
 * and appends what follows: supersessions, archives, verification results, hygiene reports, and
 * the tick itself. Nothing is run for a home with no memories.
 */
export function maintenanceReactor(options: MaintenanceOptions = {}): Reactor {
  const everyMs = options.everyMs ?? 24 * 3600_000;
  // A tick whose events could not be appended is not retried before the next is due.
  let triedAt = Number.NEGATIVE_INFINITY;
  return {
    name: 'maintenance',
    reads: ['memories'],
    async react(ctx): Promise<Envelope[]> {
      const now = ctx.clock.now();
      const last = await committedRow(ctx.runner.rowsOf('memories'), MAINTAINED);
      if (last && now.getTime() - Date.parse(last.at) < everyMs) return [];
      if (performance.now() - triedAt < everyMs) return [];
      triedAt = performance.now();
      const plan = await maintain(ctx.runner, ctx.clock, {});
      return plan?.events ?? [];
    },
  };
}

/** One tick at the clock's time: the plan, or undefined when there is no memory at all. */
export async function maintain(runner: ProjectionRunner, clock: Clock, checks: CheckOptions): Promise<MaintenancePlan | undefined> {
  const rows = runner.rowsOf('memories');
  const memories: MemoryRow[] = [];
  const hygiene = new Map<string, HygieneRow>();
  for await (const [, memory] of rowsOfKind((prefix) => rows.entries(prefix), 'mem')) memories.push(memory);
  for await (const [, row] of rowsOfKind((prefix) => rows.entries(prefix), 'hygiene')) hygiene.set(row.dir, row);
  if (memories.length === 0) return undefined;
  return planMaintenance({ memories, now: clock.now(), checks: await checkMemories(memories, checks), hygiene });
}
