import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { EngineCommand } from '../workers/commands/command.js';
import { memoriesForget, memoriesPin, memoriesRestore, memoriesUnpin } from '../workers/commands/memory-commands.js';

/**
 * Something a person can do from the viewer. Each runs the CLI's own command, so it records the
 * same event the CLI would (`engram memories pin NAME` and the Pin button are one code path).
 */
export interface ViewerAction {
  readonly name: string;
  readonly label: string;
  /**
   * What it acts on. `memory` actions show on a memory's page. Skill suggestions (accept,
   * decline) will be `skill` actions once a skills projection exists: add them to
   * `viewerActions` with their command, and the POST route takes them as it is.
   */
  readonly kind: 'memory' | 'skill';
  /** Whether the button shows for this memory (pin only when unpinned, restore only when archived or superseded). */
  applies(row: MemoryRow): boolean;
  readonly asksReason: boolean;
  readonly command: EngineCommand<{ query: string; project?: string; reason?: string }>;
}

export const viewerActions: readonly ViewerAction[] = [
  { name: 'pin', label: 'Pin', kind: 'memory', applies: (row) => !row.pinned, asksReason: false, command: memoriesPin },
  { name: 'unpin', label: 'Unpin', kind: 'memory', applies: (row) => row.pinned, asksReason: false, command: memoriesUnpin },
  { name: 'forget', label: 'Forget', kind: 'memory', applies: (row) => !row.archived, asksReason: true, command: memoriesForget },
  { name: 'restore', label: 'Restore', kind: 'memory', applies: (row) => row.archived !== undefined || row.status === 'superseded', asksReason: false, command: memoriesRestore },
];
