import { EngramError } from '../errors.js';
import type { SyncScope } from './sync-settings.js';

/**
 * Events about this machine rather than about the work: another machine must never fold them.
 * LogRepaired names seqs of this log; HookWritesFailed counts this machine's spool; the skills
 * inventory and scan describe the skill files on this disk.
 */
const MACHINE_LOCAL = new Set(['LogRepaired', 'HookWritesFailed', 'SkillsInventoried', 'SkillsScanned']);

/**
 * The team scope's allow-list: the one event that carries a memory as it stands, and nothing
 * else. Prompts, tool calls, transcripts, traces, distiller results and routes never leave in
 * this scope, whatever else the log holds.
 */
const TEAM_SHAREABLE = new Set(['MemoryShared']);

/**
 * Whether an event of `type` leaves the machine in `scope`. The one place that decides it: the
 * forwarder asks before publishing (assertShareable, at the publish call), and the importer asks
 * again of what arrives, so a stream that holds more than the scope allows still brings in
 * nothing more.
 */
export function shareableIn(scope: SyncScope, type: string): boolean {
  switch (scope) {
    case 'personal':
      return !MACHINE_LOCAL.has(type);
    case 'team':
      return TEAM_SHAREABLE.has(type);
  }
}

/** Throws unless an event of `type` may leave in `scope`: called right where an event is published. */
export function assertShareable(scope: SyncScope, type: string): void {
  if (!shareableIn(scope, type)) throw new EngramError('SYNC_FAILED', `refused to publish a ${type} event: not shared in the ${scope} scope`);
}
