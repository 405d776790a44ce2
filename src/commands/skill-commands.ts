import { z } from 'zod';
import { EngramError } from '../errors.js';
import { SkillSuggestionAccepted, SkillSuggestionDeclined } from '../events/skill-events.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import { skillsView, type Suggestion } from '../projections/skills/render-skills-view.js';
import { suggestKeyOf, type SuggestRow } from '../projections/skills/skill-rows.js';
import { curateSkills } from '../skills/curate-skills.js';
import type { Engine } from '../engine/engine.js';
import { curate, curatorRows } from '../reactors/skill-curator.js';
import { defineCommand } from './command.js';
import { findMemory } from './memory-lookup.js';

/** `engram skills suggest [--project PATH] [--json]`: the project's and the global memories that could become skills. */
export const skillsSuggest = defineCommand({
  name: 'skills.suggest',
  access: 'read',
  args: z.object({ project: z.string(), json: z.boolean().default(false) }),
  async run(engine, args, output) {
    const suggestions: Suggestion[] = [];
    for (const project of [args.project, '']) {
      const row = (await engine.runner.rowsOf('skill-suggestions').get(suggestKeyOf(project))) as SuggestRow | undefined;
      if (row) suggestions.push(...skillsView(row).suggestions);
    }
    if (args.json) {
      await output.out(`${JSON.stringify(suggestions, null, 2)}\n`);
      return 0;
    }
    if (suggestions.length === 0) {
      await output.out('no memory is ready to become a skill\n');
      return 0;
    }
    const lines = suggestions.map((s) => `${s.name}  (${s.path})\n    ${s.description}\n    → ${verdict(s)}`);
    await output.out(`${lines.join('\n')}\n\nengram skills accept MEMORY --skill NAME | engram skills decline MEMORY\n`);
    return 0;
  },
});

function verdict(s: Suggestion): string {
  const score = s.cosine === undefined ? '' : ` (cosine ${s.cosine.toFixed(2)}, threshold ${s.threshold?.toFixed(2)})`;
  if (s.verdict === 'update') return `update the ${s.skill!.scope} skill ${JSON.stringify(s.skill!.name)}${score}`;
  if (s.verdict === 'new') return `a new skill${score}`;
  return 'not matched yet (the worker matches it against your skills)';
}

const answer = z.object({ memory: z.string().min(1), project: z.string().optional() });

/**
 * `engram skills accept MEMORY --skill NAME`: records that the memory now lives in that skill
 * (`implemented_in: NAME` in its file). Writing the skill is the agent's work, with the user's
 * yes; the memory stays and is still recalled.
 */
export const skillsAccept = defineCommand({
  name: 'skills.accept',
  access: 'write',
  args: answer.extend({ skill: z.string().min(1).max(200).regex(/^[^/\\\0\n]+$/, 'a skill name, not a path') }),
  async run(engine, args, output) {
    if (args.skill === 'declined') throw new EngramError('USAGE', '"declined" is what `engram skills decline` records; name the skill');
    const memory = await findMemory(engine, args.memory, args.project);
    await record(engine, memory, 'accepted', args.skill);
    await output.out(`${memory.name}: implemented in ${args.skill}\n`);
    return 0;
  },
});

export const skillsDecline = defineCommand({
  name: 'skills.decline',
  access: 'write',
  args: answer,
  async run(engine, args, output) {
    const memory = await findMemory(engine, args.memory, args.project);
    await record(engine, memory, 'declined', undefined);
    await output.out(`${memory.name}: declined, not suggested again\n`);
    return 0;
  },
});

async function record(engine: Engine, memory: MemoryRow, what: 'accepted' | 'declined', skill: string | undefined): Promise<void> {
  const definition = what === 'accepted' ? SkillSuggestionAccepted : SkillSuggestionDeclined;
  await engine.record([
    {
      // The same answer given twice is stored once; a different answer later is a new event.
      id: `skill-${what}:${memory.id.slice(0, 40)}:${(skill ?? '').slice(0, 20)}:${(memory.implementedIn ?? '').slice(0, 10)}`,
      type: definition.type,
      schemaVersion: definition.schemaVersion,
      ts: engine.clock.now().toISOString(),
      session: '',
      project: memory.project,
      data: skill === undefined ? { memoryId: memory.id } : { memoryId: memory.id, skill },
    },
  ]);
}

const curateArgs = z.object({ archive: z.boolean().default(false), now: z.string().datetime({ offset: true }).optional() });

/** `engram skills curate --dry-run`: what the curator would report now, recording and moving nothing. */
export const skillsCuratePlan = defineCommand({
  name: 'skills.curate-plan',
  access: 'read',
  args: curateArgs,
  async run(engine, args, output) {
    const now = args.now ? new Date(args.now) : engine.clock.now();
    const found = await curateSkills(curatorRows(engine.runner.rowsOf('skill-suggestions')), now, engine.services.skills?.curator);
    await output.out(renderCuration(found.map((item) => item.finding), args.archive ? 'would move to _archive/' : 'archivable'));
    return 0;
  },
});

/** `engram skills curate`: the curator now (not waiting for its week), moving archivable skills only with ENGRAM_CURATOR_ARCHIVE=1. */
export const skillsCurate = defineCommand({
  name: 'skills.curate',
  access: 'write',
  args: curateArgs,
  async run(engine, args, output) {
    await engine.runner.catchUp();
    const clock = args.now ? { now: () => new Date(args.now!) } : engine.clock;
    const { events } = await curate(engine.runner.rowsOf('skill-suggestions'), engine.paths, clock, { ...engine.services.skills?.curator, archive: args.archive });
    await engine.record(events);
    const curated = events.find((event) => event.type === 'SkillsCurated');
    const findings = curated ? (curated.data as { findings: Parameters<typeof renderCuration>[0] }).findings : [];
    await output.out(renderCuration(findings, 'archivable'));
    return 0;
  },
});

function renderCuration(findings: ReadonlyArray<{ name: string; scope: string; project: string; days: number; verdict: string; lastUsed: string }>, archivable: string): string {
  if (findings.length === 0) return 'no captured skill has gone unused long enough to mention\n';
  return `${findings
    .map((f) => `${f.verdict === 'archivable' ? archivable : f.verdict}  ${f.name}  (${f.scope}${f.project ? ` ${f.project}` : ''}; unused ${f.days} days, since ${f.lastUsed.slice(0, 10)})`)
    .join('\n')}\n`;
}
