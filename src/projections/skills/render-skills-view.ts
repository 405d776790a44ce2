import { quoted } from '../summary/quoted.js';
import { matchKey } from './skill-eligibility.js';
import type { CuratorFinding, SuggestRow } from './skill-rows.js';

/** One memory's suggestion, as `engram skills suggest` prints it. */
export interface Suggestion {
  memoryId: string;
  name: string;
  description: string;
  path: string;
  /** update: fold it into that own skill; new: write a skill for it; pending: not matched yet. */
  verdict: 'update' | 'new' | 'pending';
  skill?: { name: string; scope: 'user' | 'project' };
  cosine?: number;
  threshold?: number;
}

/** `views/skills/<slug>.json`: what `engram skills suggest` and the SessionStart footer read. */
export interface SkillsView {
  project: string;
  /** The SessionStart footer's lines, each a `- ` item, memory and skill names quoted as data; first, so the hook reads them first. */
  notes: string[];
  suggestions: Suggestion[];
  curator: { at: string; findings: CuratorFinding[] };
}

/** Names a footer line quotes at most. */
const NOTE_NAMES = 3;

export function skillsView(row: SuggestRow): SkillsView {
  const suggestions = row.memories.map((memory): Suggestion => {
    const match = row.matches[memory.memoryId];
    const base = { memoryId: memory.memoryId, name: memory.name, description: memory.description, path: memory.path };
    if (!match || match.matchKey !== matchKey(memory.description, row.skillsKey)) return { ...base, verdict: 'pending' };
    const score = { ...(match.cosine === undefined ? {} : { cosine: Math.round(match.cosine * 1000) / 1000 }), threshold: match.threshold };
    return match.skill ? { ...base, verdict: 'update', skill: match.skill, ...score } : { ...base, verdict: 'new', ...score };
  });
  return { project: row.project, notes: notes(suggestions, row.curator), suggestions, curator: { at: row.curatedAt, findings: [...row.curator] } };
}

export function renderSkillsView(row: SuggestRow): string {
  return `${JSON.stringify(skillsView(row), null, 2)}\n`;
}

function notes(suggestions: readonly Suggestion[], curator: readonly CuratorFinding[]): string[] {
  const lines: string[] = [];
  const ready = suggestions.filter((suggestion) => suggestion.verdict !== 'pending');
  if (ready.length > 0) {
    const updates = ready.filter((suggestion) => suggestion.verdict === 'update');
    const skills = [...new Set(updates.map((suggestion) => suggestion.skill!.name))];
    const parts = [
      ...(updates.length > 0 ? [`${updates.length} could update ${names(skills)}`] : []),
      ...(ready.length > updates.length ? [`${ready.length - updates.length} could become ${ready.length - updates.length === 1 ? 'a new skill' : 'new skills'}`] : []),
    ];
    lines.push(`- Skill suggestions: ${ready.length} ${ready.length === 1 ? 'memory' : 'memories'} (${names(ready.map((s) => s.name))}): ${parts.join(', ')}; \`engram skills suggest\` lists them.`);
  }
  for (const verdict of ['archivable', 'stale', 'archived'] as const) {
    const found = curator.filter((finding) => finding.verdict === verdict);
    if (found.length === 0) continue;
    const what = verdict === 'stale' ? 'unused 30+ days (stale)' : verdict === 'archivable' ? 'unused 90+ days (archivable)' : 'moved to _archive/ by the curator';
    lines.push(`- Captured skills ${what}: ${names(found.map((finding) => finding.name))}; \`engram skills curate --dry-run\` lists them.`);
  }
  return lines;
}

function names(all: readonly string[]): string {
  const shown = all.slice(0, NOTE_NAMES).map((name) => quoted(name, 60)).join(', ');
  return all.length > NOTE_NAMES ? `${shown} and ${all.length - NOTE_NAMES} more` : shown;
}
