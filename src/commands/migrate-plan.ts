import { z } from 'zod';
import { logMigrations } from '../../migrations/index.js';
import { planMigrations, type MigrationPlan } from '../log/migrate-log.js';
import { defineCommand } from './command.js';

/** `engram migrate --dry-run`: what the pending log migrations would change; writes nothing. */
export const migratePlan = defineCommand({
  name: 'migrate.plan',
  access: 'read',
  args: z.object({}),
  async run(engine, _args, output) {
    await output.out(describePlan(await planMigrations(engine.log, logMigrations), true));
    return 0;
  },
});

export function describePlan(plan: MigrationPlan, dryRun: boolean): string {
  if (plan.pending.length === 0) return `nothing to migrate: the log (${plan.events} events) has every migration\n`;
  const lines = [`${dryRun ? 'would apply' : 'applying'} ${plan.pending.length} migration(s) to ${plan.events} events:`];
  for (const m of plan.pending) {
    const types = Object.entries(m.changedByType).map(([type, n]) => `${type} ${n}`).join(', ');
    lines.push(`  ${m.id}: ${m.description}`);
    lines.push(`    rewrites ${m.changed} events${types ? ` (${types})` : ''}${m.examples.length ? `; e.g. seq ${m.examples.map((e) => e.seq).join(', ')}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
