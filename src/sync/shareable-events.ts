import type { SyncScope } from './sync-settings.js';

/**
 * Events about this machine rather than about the work: another machine must never fold them.
 * LogRepaired names seqs of this log; HookWritesFailed counts this machine's spool; the skills
 * inventory and scan describe the skill files on this disk.
 */
const MACHINE_LOCAL = new Set(['LogRepaired', 'HookWritesFailed', 'SkillsInventoried', 'SkillsScanned']);

/**
 * Whether an event of `type` leaves the machine in `scope`. The one place that decides it: the
 * forwarder asks before publishing, and the importer asks again of what arrives, so a stream
 * that holds more than the scope allows still brings in nothing more.
 */
export function shareableIn(scope: SyncScope, type: string): boolean {
  switch (scope) {
    case 'personal':
      return !MACHINE_LOCAL.has(type);
  }
}
