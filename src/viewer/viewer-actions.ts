import { z } from 'zod';
import { EngramError } from '../errors.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import { isSkillEligible } from '../projections/skills/skill-eligibility.js';
import type { EngineCommand } from '../commands/command.js';
import { memoriesForget, memoriesPin, memoriesRestore, memoriesUnpin } from '../commands/memory-commands.js';
import { skillsAccept, skillsDecline } from '../commands/skill-commands.js';

/** What a memory page's form sends: the memory's id, and its one text field when it has one. */
type ActionInput = { query: string; project?: string; reason?: string };

/**
 * Something a person can do from the viewer. Each runs the CLI's own command, so it records the
 * same event the CLI would (`engram memories pin NAME` and the Pin button are one code path).
 */
export interface ViewerAction {
  readonly name: string;
  readonly label: string;
  /** What it acts on: every action so far shows on a memory's page (skill suggestions are a memory's too). */
  readonly kind: 'memory' | 'skill';
  /** Whether the button shows for this memory (pin only when unpinned, restore only when archived or superseded). */
  applies(row: MemoryRow): boolean;
  /** Whether the form has a text field (sent as `reason`). */
  readonly asksReason: boolean;
  /** The text field's placeholder. Default "reason". */
  readonly placeholder?: string;
  readonly command: EngineCommand<ActionInput>;
}

/**
 * `engram skills accept|decline` behind the memory form: the memory's id is the MEMORY argument
 * and, for accept, the text field names the skill. Checked by the command's own argument schema,
 * a bad name a 400 like any usage error.
 */
function skillAction(command: typeof skillsAccept | typeof skillsDecline): EngineCommand<ActionInput> {
  return {
    name: `viewer.${command.name}`,
    access: 'write',
    args: z.object({ query: z.string(), project: z.string().optional(), reason: z.string().optional() }),
    async run(engine, input, output) {
      const parsed = command.args.safeParse({ memory: input.query, ...(command === skillsAccept ? { skill: (input.reason ?? '').trim() } : {}) });
      if (!parsed.success) throw new EngramError('USAGE', `${command.name}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
      return (command as EngineCommand<typeof parsed.data>).run(engine, parsed.data, output);
    },
  };
}

export const viewerActions: readonly ViewerAction[] = [
  { name: 'pin', label: 'Pin', kind: 'memory', applies: (row) => !row.pinned, asksReason: false, command: memoriesPin },
  { name: 'unpin', label: 'Unpin', kind: 'memory', applies: (row) => row.pinned, asksReason: false, command: memoriesUnpin },
  { name: 'forget', label: 'Forget', kind: 'memory', applies: (row) => !row.archived, asksReason: true, command: memoriesForget },
  { name: 'restore', label: 'Restore', kind: 'memory', applies: (row) => row.archived !== undefined || row.status === 'superseded', asksReason: false, command: memoriesRestore },
  // A memory a skill could hold (skill-eligibility.ts): the suggestion's two answers.
  { name: 'skill-accept', label: 'Accept into skill', kind: 'skill', applies: isSkillEligible, asksReason: true, placeholder: 'skill name', command: skillAction(skillsAccept) },
  { name: 'skill-decline', label: 'Decline skill suggestion', kind: 'skill', applies: isSkillEligible, asksReason: false, command: skillAction(skillsDecline) },
];
