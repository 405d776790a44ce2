import { parseArgs } from 'node:util';
import { EngramError } from '../errors.js';
import { syncFolder, syncFromEnv } from '../sync/sync-settings.js';
import { readSyncStatus, type SyncStatus } from '../sync/sync-status.js';
import { liveWorker } from '../launch/live-worker.js';
import type { EngineCommandContext } from './run-engine-command.js';

export const SYNC_USAGE = `engram sync status [--json]         the sync with your other machines: connection, lag, last ack, last error`;

/** `engram sync status`: what the worker's sync last wrote, without ever a credential. */
export async function syncCli(args: string[], ctx: EngineCommandContext): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  if (positionals[0] !== 'status') throw new EngramError('USAGE', SYNC_USAGE);
  const { paths, terminal } = ctx;
  const env = ctx.env ?? process.env;
  const settings = syncFromEnv(env, paths);
  const status = readSyncStatus(syncFolder(paths));
  const worker = await liveWorker(paths);
  const current = status !== undefined && worker?.pid === status.pid;
  if (values.json) {
    terminal.stdout.write(`${JSON.stringify({ scope: settings?.scope ?? 'off', workerRunning: worker !== undefined, current, status: status ?? null })}\n`);
    return 0;
  }
  if (!settings) {
    terminal.stdout.write(`sync: off (nothing leaves this machine). To turn it on: docs/team-sync.md\n`);
    if (status) terminal.stdout.write(`last sync status (from ${status.updatedAt}):\n${describeSyncStatus(status)}`);
    return 0;
  }
  terminal.stdout.write(`sync: ${settings.scope} scope, as ${settings.user}\n`);
  if (!status) {
    terminal.stdout.write(`no sync status yet: ${worker ? 'the worker has not written one yet' : 'no worker has run with sync on (`engram worker --detach` starts one)'}\n`);
    return 0;
  }
  if (!current) terminal.stdout.write(`the worker is ${worker ? `running (pid ${worker.pid}) but this status is from an earlier one` : 'not running'}; last status from ${status.updatedAt}:\n`);
  terminal.stdout.write(describeSyncStatus(status));
  return 0;
}

/** The status in plain lines, for `engram sync status` and `engram doctor`. */
export function describeSyncStatus(s: SyncStatus): string {
  const lines = [
    `server: ${s.servers.join(', ')} (${s.connected ? 'connected' : 'not connected'}), subject ${s.subject}`,
    `sent: every shareable event up to local seq ${s.forwardedTo} of ${s.localHead} (${Math.max(0, s.localHead - s.forwardedTo)} behind)` +
      (s.lastAck ? `; last ack: local seq ${s.lastAck.seq} = stream seq ${s.lastAck.streamSeq} at ${s.lastAck.at}` : '; no ack yet in this run'),
    `received: up to stream seq ${s.importedTo}${s.pending !== undefined ? ` (${s.pending} more waiting)` : ''}; ${s.imported} events taken in this run`,
  ];
  // What was shared, per scope's subject: a team project's line says what left for that team.
  for (const team of s.teams ?? []) {
    const counts = s.bySubject?.[team.subject] ?? { sent: 0, received: 0 };
    lines.push(`team project ${team.id} (${team.dir}): ${counts.sent} memory states shared, ${counts.received} of teammates' taken in, in this run (subject ${team.subject}; only MemoryShared events leave)`);
  }
  if (!s.teams) {
    for (const [subject, counts] of Object.entries(s.bySubject ?? {})) lines.push(`${subject}: ${counts.sent} events sent, ${counts.received} taken in, in this run`);
  }
  if (s.rejected > 0) lines.push(`refused: ${s.rejected} messages (see sync/rejected/ in ENGRAM_HOME)`);
  if (s.tooLarge > 0) lines.push(`not shared: ${s.tooLarge} events larger than the server takes`);
  if (s.missed) lines.push(`missed: ${s.missed}`);
  if (s.lastError) lines.push(`last error: ${s.lastError.message} (at ${s.lastError.at})`);
  return `${lines.join('\n')}\n`;
}
