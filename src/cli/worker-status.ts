import { Writable } from 'node:stream';
import type { ProjectorStatus } from '../engine/projection-runner.js';
import type { SpoolCounts } from '../commands/log-commands.js';
import { runEngineCommand, type EngineCommandContext } from './run-engine-command.js';

interface StatusFacts {
  head: number;
  spool: SpoolCounts;
  projectors: ProjectorStatus[];
  /** Absent from workers of earlier builds. */
  model?: { state: string; idleMs?: number; kernel?: string; rssMb?: number };
  rssMb?: number;
}

/**
 * `engram worker status`: a few readable lines (the log, the spool, the projections that are not
 * up to date and why); `--json` prints the facts as the status command gives them.
 */
export async function workerStatus(ctx: EngineCommandContext, json: boolean): Promise<number> {
  // A status query reports; it does not make the worker hand over.
  if (json) return runEngineCommand('status', {}, { ...ctx, handOver: false });
  let text = '';
  const capture = new Writable({ write: (chunk, _enc, done) => ((text += chunk.toString()), done()) });
  const code = await runEngineCommand('status', {}, { ...ctx, handOver: false, terminal: { stdout: capture, stderr: ctx.terminal.stderr } });
  if (code !== 0) return code;
  const facts = JSON.parse(text) as StatusFacts;
  const lines = [`log: ${facts.head} events`, `spool: ${facts.spool.pending} waiting, ${facts.spool.inFlight} being written, ${facts.spool.rejected} rejected${facts.spool.newer > 0 ? `, ${facts.spool.newer} for a newer engram` : ''}`];
  const behind = facts.projectors.filter((p) => p.fault || p.resetPending || p.failing || p.failedRows.length > 0 || p.seq < facts.head);
  lines.push(`projections: ${facts.projectors.length - behind.length} of ${facts.projectors.length} up to date`);
  if (facts.model) {
    const idle = facts.model.idleMs === undefined ? '' : ` (let go after ${Math.round(facts.model.idleMs / 1000)} s unused)`;
    lines.push(`model: ${facts.model.state === 'off' ? 'off (no vectors)' : `${facts.model.state}${idle}`}${facts.rssMb === undefined ? '' : `; resident memory ${facts.rssMb} MB`}`);
    // What runs it, and the memory of its own process when it has one (onnxruntime's).
    if (facts.model.kernel) lines.push(`  runs on ${facts.model.kernel}${facts.model.rssMb === undefined ? '' : `, in a process of its own: ${facts.model.rssMb} MB`}`);
  }
  for (const p of behind) {
    const why = p.fault
      ? `stopped at event ${p.fault.seq}: ${p.fault.message}`
      : p.resetPending
        ? `to be rebuilt: ${p.resetPending}`
        : p.failing
          ? `not advancing since ${p.failing.since}: ${p.failing.message}`
          : p.failedRows.length > 0
            ? `${p.failedRows.length} row(s) whose files could not be written`
            : `at event ${p.seq} of ${facts.head}`;
    lines.push(`  ${p.name}: ${why}`);
  }
  ctx.terminal.stdout.write(`${lines.join('\n')}\n(\`engram worker status --json\` for every detail, \`engram doctor\` for what to do)\n`);
  return 0;
}
