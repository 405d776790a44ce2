import type { DomainEvent } from '../../events/catalog.js';
import type { FileOp } from '../file-ops.js';
import { isMemoryKey, memoriesProjector, type MemoriesRow } from '../memories/memories.js';
import type { MemoryRow } from '../memories/memory-row.js';
import { defineProjector, type RowReader } from '../projector.js';
import { rowChange, type RowChange } from '../row-change.js';
import { skillsViewPath } from '../view-paths.js';
import { renderSkillsView } from './render-skills-view.js';
import { isSkillEligible, matchKey, skillsKey } from './skill-eligibility.js';
import {
  CAPTURE_SEEN, CAPTURED, CURATED, PROJECTS, skillsKeyOf, suggestKeyOf, UNMATCHED, usedKeyOf,
  type EligibleMemory, type OwnSkill, type SkillsRow, type SkillSuggestionsRow, type SuggestRow,
} from './skill-rows.js';

/** Bump when the rows or the view change for the same events. */
const SUGGESTIONS_VERSION = 1;

type Row = SkillSuggestionsRow | MemoriesRow;

/**
 * Memory → skill suggestions and the curator's report (DESIGN.md "Skills"): the memories
 * projection's own rows (its `evolve`, so which memory is active, reinforced or implemented is
 * decided in one place) under a lane of its own, plus the own skills as SkillsScanned recorded them,
 * their last use (the Skill tool, a read of their SKILL.md), and one suggestion row per memory
 * directory, whose sink writes `views/skills/<slug>.json` for `engram skills suggest` and the
 * SessionStart footer. Matching by embedding happens in the skill-matcher reactor, recorded as
 * SkillMatched; this projection only says whether a recorded match still fits the descriptions.
 */
export const skillSuggestionsProjector = defineProjector<Row>({
  name: 'skill-suggestions',
  projectorVersion: memoriesProjector.projectorVersion * 1000 + SUGGESTIONS_VERSION,
  handles: [...memoriesProjector.handles, 'SkillsScanned', 'SkillMatched', 'SkillsCurated', 'SkillArchived', 'ToolCalled'],
  evolve(state, event) {
    // Most tool calls are neither a skill's use nor a SKILL.md read or written (toolCalled): nothing to make.
    if (event.type === 'ToolCalled' && (!event.data.ok || (event.data.tool !== 'Skill' && !event.data.input.endsWith('SKILL.md')))) return [];
    const changes = (memoriesProjector.handles as readonly string[]).includes(event.type) ? memoriesProjector.evolve(state as RowReader<MemoriesRow>, event) : [];
    // A prompt is the memories' alone here: most teach nothing, and then nothing here changes either.
    if (event.type === 'PromptSubmitted' && changes.length === 0) return [];
    const rows = new Rows(state);
    for (const change of changes) rows.put(change.key, change.row);
    for (const change of changes) {
      if (!isMemoryKey(change.key)) continue;
      // A memory row goes when an earlier telling takes the memory over under its own id (memory-changes.ts).
      const gone = change.row === null ? (state.get(change.key) as MemoryRow | undefined) : undefined;
      if (change.row !== null) memoryChanged(rows, change.row as MemoryRow);
      else if (gone) memoryChanged(rows, gone, true);
    }
    switch (event.type) {
      case 'SkillsScanned':
        skillsRead(rows, event.project, event.data.skills, event.ts);
        break;
      case 'SkillArchived': {
        const project = event.data.scope === 'user' ? '' : event.project;
        const row = rows.get(skillsKeyOf(project)) as SkillsRow | undefined;
        if (row?.skills.some((skill) => skill.name === event.data.name)) {
          skillsRead(rows, project, row.skills.filter((skill) => skill.name !== event.data.name), event.ts);
        }
        break;
      }
      case 'SkillMatched': {
        // The matcher names the directory's project in the envelope: one row to read.
        const row = rows.get(suggestKeyOf(event.project)) as SuggestRow | undefined;
        if (row?.memories.some((memory) => memory.memoryId === event.data.memoryId)) {
          putSuggest(rows, { ...row, matches: { ...row.matches, [event.data.memoryId]: event.data } });
        }
        break;
      }
      case 'SkillsCurated': {
        rows.put(CURATED, { at: event.data.at });
        const projects = new Set([...projectsOf(rows), ...event.data.findings.map((finding) => finding.project)]);
        for (const project of [...projects].sort()) {
          const row = suggestRow(rows, project);
          const curator = event.data.findings.filter((finding) => finding.project === project);
          if (curator.length === 0 && row.curator.length === 0) continue;
          putSuggest(rows, { ...row, curator, curatedAt: event.data.at });
        }
        break;
      }
      case 'ToolCalled':
        toolCalled(rows, event);
        break;
      default:
        break;
    }
    return rows.changes();
  },
});

/** `views/skills/<slug>.json` (or `global.json`) for suggestion rows; other rows have no file. */
export function materializeSkillSuggestions(key: string, row: Row): FileOp[] {
  if (!key.startsWith('suggest:')) return [];
  const suggest = row as SuggestRow;
  return [{ kind: 'write', path: skillsViewPath(suggest.project), content: renderSkillsView(suggest) }];
}

function memoryChanged(rows: Rows, memory: MemoryRow, gone = false): void {
  const row = suggestRow(rows, memory.project);
  const before = row.memories.find((entry) => entry.memoryId === memory.id);
  const after: EligibleMemory | undefined = !gone && isSkillEligible(memory)
    ? { memoryId: memory.id, name: memory.name, description: memory.description, path: `${memory.dir}/${memory.file}` }
    : undefined;
  if (before === undefined && after === undefined) return;
  if (before && after && before.name === after.name && before.description === after.description && before.path === after.path) return;
  const memories = row.memories.filter((entry) => entry.memoryId !== memory.id);
  if (after) memories.push(after);
  memories.sort((a, b) => (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0));
  putSuggest(rows, { ...row, memories });
}

function skillsRead(rows: Rows, project: string, skills: readonly OwnSkill[], at: string): void {
  const before = rows.get(skillsKeyOf(project)) as SkillsRow | undefined;
  const firstSeen: Record<string, string> = {};
  for (const skill of skills) firstSeen[skill.name] = before?.firstSeen[skill.name] ?? at;
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  rows.put(skillsKeyOf(project), { project, skills: sorted, firstSeen });
  const captured = (list: readonly OwnSkill[] | undefined) => (list ?? []).filter((skill) => skill.captured).length;
  const delta = captured(sorted) - captured(before?.skills);
  if (delta !== 0) rows.put(CAPTURED, { count: (((rows.get(CAPTURED) as { count: number } | undefined)?.count ?? 0) + delta) });
  // The user's skills are matched against by every directory; a project's, by its own and no other.
  for (const other of project === '' ? projectsOf(rows) : [project]) {
    const row = rows.get(suggestKeyOf(other)) as SuggestRow | undefined;
    if (row) putSuggest(rows, { ...row, skillsKey: skillsKey(visibleSkills(rows, other)) });
  }
}

function toolCalled(rows: Rows, event: Extract<DomainEvent, { type: 'ToolCalled' }>): void {
  const { tool, input, ok } = event.data;
  if (!ok) return;
  const project = event.project;
  const file = /(?:^|\/)skills\/([^/]+)\/SKILL\.md$/.exec(input);
  if (tool === 'Skill') {
    // Plugin skills are called `plugin:name`; those are not the user's own and age no one.
    const own = projectSkill(rows, project, input) ? project : userSkill(rows, input) ? '' : undefined;
    if (own !== undefined) rows.put(usedKeyOf(own, input), { at: event.ts });
  } else if (file && tool === 'Read') {
    const name = file[1]!;
    const own = input === `${project}/.claude/skills/${name}/SKILL.md` && projectSkill(rows, project, name) ? project : userSkill(rows, name) ? '' : undefined;
    if (own !== undefined) rows.put(usedKeyOf(own, name), { at: event.ts });
  } else if (file && (tool === 'Write' || tool === 'Edit' || tool === 'MultiEdit')) {
    // A skill written or changed (a capture): the skill-files reactor reads the project again.
    const seen = { ...((rows.get(CAPTURE_SEEN) as Readonly<Record<string, string>> | undefined) ?? {}), [project]: event.ts };
    rows.put(CAPTURE_SEEN, Object.fromEntries(Object.entries(seen).sort(([a], [b]) => (a < b ? -1 : 1))));
  }
}

function projectSkill(rows: Rows, project: string, name: string): boolean {
  return project !== '' && ((rows.get(skillsKeyOf(project)) as SkillsRow | undefined)?.skills.some((skill) => skill.name === name) ?? false);
}

function userSkill(rows: Rows, name: string): boolean {
  return (rows.get(skillsKeyOf('')) as SkillsRow | undefined)?.skills.some((skill) => skill.name === name) ?? false;
}

/** The skills a directory's memories may update: the user's own, and the project's own for a project. */
function visibleSkills(rows: RowReader<Row>, project: string): OwnSkill[] {
  const user = (rows.get(skillsKeyOf('')) as SkillsRow | undefined)?.skills ?? [];
  const own = project === '' ? [] : ((rows.get(skillsKeyOf(project)) as SkillsRow | undefined)?.skills ?? []);
  return [...user, ...own];
}

function projectsOf(rows: Rows): readonly string[] {
  return (rows.get(PROJECTS) as readonly string[] | undefined) ?? [];
}

function suggestRow(rows: Rows, project: string): SuggestRow {
  return (
    (rows.get(suggestKeyOf(project)) as SuggestRow | undefined) ?? {
      project, skillsKey: skillsKey(visibleSkills(rows, project)), memories: [], matches: {}, curator: [], curatedAt: '',
    }
  );
}

/** Puts a suggestion row, and keeps the project list and the unmatched list in step with it. */
function putSuggest(rows: Rows, row: SuggestRow): void {
  // Matches of memories no longer eligible are dropped: one that comes back is matched afresh.
  const eligible = new Set(row.memories.map((memory) => memory.memoryId));
  const matches = Object.fromEntries(Object.entries(row.matches).filter(([id]) => eligible.has(id)).sort(([a], [b]) => (a < b ? -1 : 1)));
  rows.put(suggestKeyOf(row.project), { ...row, matches });
  const projects = projectsOf(rows);
  if (!projects.includes(row.project)) rows.put(PROJECTS, [...projects, row.project].sort());
  const prefix = `${row.project}\n`;
  const unmatched = ((rows.get(UNMATCHED) as readonly string[] | undefined) ?? []).filter((entry) => !entry.startsWith(prefix));
  for (const memory of row.memories) {
    if (matches[memory.memoryId]?.matchKey !== matchKey(memory.description, row.skillsKey)) unmatched.push(prefix + memory.memoryId);
  }
  rows.put(UNMATCHED, unmatched.sort());
}

/** The rows as this event's steps so far leave them. */
class Rows implements RowReader<Row> {
  readonly #base: RowReader<Row>;
  readonly #changed = new Map<string, Row | null>();

  constructor(base: RowReader<Row>) {
    this.#base = base;
  }

  get(key: string): Row | undefined {
    if (this.#changed.has(key)) return this.#changed.get(key) ?? undefined;
    return this.#base.get(key);
  }

  put(key: string, row: Row | null): void {
    this.#changed.set(key, row);
  }

  changes(): RowChange<Row>[] {
    return [...this.#changed].map(([key, row]) => rowChange(key, row));
  }
}
