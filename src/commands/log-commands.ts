import { readdirSync } from 'node:fs';
import { z } from 'zod';
import { defaultCatalog } from '../events/default-catalog.js';
import type { EngramPaths } from '../paths.js';
import { countNewerFiles } from '../ingest/count-newer-files.js';
import { defineCommand } from './command.js';
import { eventCounts } from './event-counts.js';
import { describeDamage, isWhole } from '../log/log-check.js';

/** `engram log dump`: every event as stored, one JSON object a line, in log order. */
export const logDump = defineCommand({
  name: 'log.dump',
  access: 'read',
  args: z.object({}),
  async run(engine, _args, output) {
    for await (const batch of engine.log.read({ batchSize: 500 })) {
      let text = '';
      for (const e of batch) {
        text += `${JSON.stringify({ seq: e.seq, id: e.id, type: e.type, schemaVersion: e.schemaVersion, ts: e.ts, session: e.session, project: e.project, data: e.data, producer: e.producer })}\n`;
      }
      await output.out(text);
    }
    return 0;
  },
});

/**
 * `engram log verify`: reads and decodes every event and says where the log is damaged (which
 * seqs cannot be read); exit 1 when it is.
 */
export const logVerify = defineCommand({
  name: 'log.verify',
  access: 'read',
  args: z.object({ json: z.boolean().default(false) }),
  async run(engine, args, output) {
    const check = await engine.log.check({ decode: true });
    if (args.json) await output.out(`${JSON.stringify(check)}\n`);
    else if (isWhole(check)) await output.out(`the log is whole: ${check.readable} events read, head seq ${check.head}\n`);
    else await output.out(`${describeDamage(check)}\n${check.damaged.map((r) => `  seqs ${r.from}–${r.to}: ${r.reason}`).join('\n')}\nrun \`engram log repair\` to keep every readable event in a new log (the old one is kept)\n`);
    return isWhole(check) ? 0 : 1;
  },
});

export interface LogStats {
  total: number;
  head: number;
  byType: Record<string, number>;
  spool: SpoolCounts;
}

export interface SpoolCounts {
  /** Complete files waiting in spool/new for this engram to ingest them. */
  pending: number;
  /** Files in spool/new only a newer engram reads (an unknown event type or schemaVersion): left for it. */
  newer: number;
  /** Files a hook is writing now (or died writing) in spool/tmp. */
  inFlight: number;
  /** Files moved to spool/rejected, each with a .reason beside it. */
  rejected: number;
}

/** `engram log stats [--json]`: counts by type, total, spool pending and rejected. */
export const logStats = defineCommand({
  name: 'log.stats',
  access: 'read',
  args: z.object({ json: z.boolean().default(false) }),
  async run(engine, args, output) {
    const { total, byType: sortedTypes } = await eventCounts(engine);
    const stats: LogStats = { total, head: engine.log.head, byType: sortedTypes, spool: spoolCounts(engine.paths) };
    if (args.json) {
      await output.out(`${JSON.stringify(stats, null, 2)}\n`);
      return 0;
    }
    const lines = [`events: ${total} (head seq ${stats.head})`];
    for (const [type, n] of Object.entries(sortedTypes)) lines.push(`  ${type.padEnd(20)} ${n}`);
    lines.push(`spool: ${stats.spool.pending} pending, ${stats.spool.inFlight} in flight, ${stats.spool.rejected} rejected, ${stats.spool.newer} waiting for a newer engram`);
    await output.out(`${lines.join('\n')}\n`);
    return 0;
  },
});

export function spoolCounts(paths: EngramPaths): SpoolCounts {
  const count = (dir: string, keep: (name: string) => boolean) => {
    try {
      return readdirSync(dir).filter(keep).length;
    } catch {
      return 0;
    }
  };
  const newer = countNewerFiles(paths.spoolNew, defaultCatalog());
  return {
    pending: count(paths.spoolNew, (n) => n.endsWith('.json')) - newer,
    newer,
    inFlight: count(paths.spoolTmp, (n) => n.endsWith('.json')),
    rejected: count(paths.spoolRejected, (n) => !n.endsWith('.reason')),
  };
}
