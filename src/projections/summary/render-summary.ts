import { needsReverification, strength, type ScoreInput } from '../../memories/scores.js';
import { memoryTokens, nearDuplicates } from '../../memories/similarity.js';
import type { DirEntry, DirRow } from '../memories/memory-row.js';
import { quoted } from './quoted.js';
import { ITEM_PREFIX, NOTES_SECTION, SECTION_PREFIX, SUMMARY_FILE_BYTES, SUMMARY_SECTIONS, type SummarySection } from './summary-sections.js';

type MemorySection = Exclude<SummarySection, 'Notes'>;

/** Memories a section shows at most: what a session start can take in at a glance. */
const SECTION_LINES: Readonly<Record<MemorySection, number>> = { Preferences: 8, Procedural: 8, Facts: 8, 'Recent episodes': 5 };
/** Longest quoted name and description in an item, quotes included. */
const NAME_CHARS = 80;
const DESCRIPTION_CHARS = 160;
/** The footer names a few memories of each kind and counts the rest. */
const NOTE_NAMES = 3;
const NOTE_NAME_CHARS = 60;

/**
 * A memory directory's summary block (see summary-sections.ts for the layout): its active
 * memories by section, strongest first as of the directory's `asOf` (never the wall clock, so
 * a rebuild writes the same bytes), then the footer. Bounded by lines per section and by
 * SUMMARY_FILE_BYTES: what does not fit leaves the longest section first, weakest line first.
 */
export function renderSummary(dir: DirRow, dirEntries: readonly DirEntry[]): string {
  const now = new Date(dir.asOf);
  const entries = dirEntries.map((entry) => ({ id: entry.id, entry }));
  const active = entries.filter(({ entry }) => entry.status === 'active' && !entry.archived);
  const sections = new Map<MemorySection, string[]>();
  for (const section of Object.keys(SECTION_LINES) as MemorySection[]) {
    const members = active.filter(({ entry }) => sectionOf(entry) === section);
    const ranked =
      section === 'Recent episodes'
        ? members.sort((a, b) => compare(b.entry.lastReinforced, a.entry.lastReinforced) || byName(a.entry, b.entry))
        : members
          .map((member) => ({ ...member, score: strength(scoreInput(member.entry), now) }))
          .sort((a, b) => b.score - a.score || byName(a.entry, b.entry));
    sections.set(section, ranked.slice(0, SECTION_LINES[section]).map(({ entry }) => memoryItem(entry, section)));
  }
  const notes = footer(active, entries, now, dir.pendingRoutes ?? 0);
  const title = [`# engram summary: ${dir.project === '' ? 'global memories' : quoted(dir.project, 300)}`, `Scored as of ${dir.asOf}.`];
  let text = render(title, sections, notes);
  while (Buffer.byteLength(text) > SUMMARY_FILE_BYTES) {
    const longest = [...sections].reduce<[MemorySection, string[]] | undefined>((best, next) => (next[1].length > 0 && (!best || next[1].length >= best[1].length) ? next : best), undefined);
    if (longest) longest[1].pop();
    else if (notes.lists.length > 0) notes.lists.pop();
    else break;
    text = render(title, sections, notes);
  }
  return text;
}

/**
 * Tier first, then type (DESIGN.md "Recall"). Working memories (scratch for one task) and ideas
 * are not what a session starts from, and a file whose type did not parse says nothing to rank.
 */
function sectionOf(entry: DirEntry): MemorySection | undefined {
  switch (entry.tier) {
    case 'preference':
      return 'Preferences';
    case 'procedural':
    case 'rule':
      return 'Procedural';
    case 'fact':
      return 'Facts';
    case 'episodic':
      return 'Recent episodes';
    case 'working':
    case 'idea':
      return undefined;
    case undefined:
      break;
  }
  switch (entry.type) {
    case 'user':
    case 'feedback':
      return 'Preferences';
    case 'project':
    case 'reference':
    case 'value':
    case 'insight':
      return 'Facts';
    case 'unknown':
      return undefined;
  }
}

function memoryItem(entry: DirEntry, section: MemorySection): string {
  const name = quoted(entry.name, NAME_CHARS);
  const description = quoted(entry.description, DESCRIPTION_CHARS);
  const said = description === '""' || description === name ? name : `${name}: ${description}`;
  // An episode is worth its date; the other sections rank by strength, which the order shows.
  return section === 'Recent episodes' && entry.lastReinforced ? `${ITEM_PREFIX}${entry.lastReinforced.slice(0, 10)} ${said}` : `${ITEM_PREFIX}${said}`;
}

interface Notes {
  /** Lines that name memories, in footer order; the first to go when the file is over its cap. */
  lists: string[];
  counts: string[];
}

/**
 * The footer, in DESIGN.md's order: re-verify, skill suggestions, near-duplicates, archived,
 * awaiting corroboration. Skill suggestions come with the skills issue and take their line
 * between re-verification and near-duplicates; until then there is none.
 */
function footer(active: ReadonlyArray<{ id: string; entry: DirEntry }>, all: ReadonlyArray<{ id: string; entry: DirEntry }>, now: Date, routes: number): Notes {
  const lists: string[] = [];
  const reverify = active.filter(({ entry }) => needsReverification(scoreInput(entry), now)).sort((a, b) => byName(a.entry, b.entry));
  if (reverify.length > 0) lists.push(`${ITEM_PREFIX}due for re-verification: ${named(reverify.slice(0, NOTE_NAMES).map(({ entry }) => quoted(entry.name, NOTE_NAME_CHARS)), reverify.length)}`);
  const pairs = nearDuplicates(active.map(({ id, entry }) => ({ id, entry, tokens: memoryTokens(entry) })));
  if (pairs.length > 0) {
    const shown = pairs.slice(0, NOTE_NAMES).map((pair) => `${quoted(pair.a.entry.name, NOTE_NAME_CHARS)} and ${quoted(pair.b.entry.name, NOTE_NAME_CHARS)}`);
    lists.push(`${ITEM_PREFIX}near-duplicates: ${named(shown, pairs.length, '; ')}`);
  }
  const counts: string[] = [];
  const archived = all.filter(({ entry }) => entry.archived).length;
  if (archived > 0) counts.push(`${ITEM_PREFIX}archived: ${memories(archived)}`);
  const provisional = all.filter(({ entry }) => entry.status === 'provisional' && !entry.archived).length;
  if (provisional > 0) counts.push(`${ITEM_PREFIX}provisional, awaiting corroboration: ${memories(provisional)}`);
  if (routes > 0) counts.push(`${ITEM_PREFIX}proposed for CLAUDE.md or docs/knowledge/: ${routes} (\`engram routes\`)`);
  return { lists, counts };
}

function named(items: readonly string[], total: number, separator = ', '): string {
  const shown = items.join(separator);
  return total > NOTE_NAMES ? `${shown} and ${total - NOTE_NAMES} more` : shown;
}

function memories(n: number): string {
  return `${n} ${n === 1 ? 'memory' : 'memories'}`;
}

function render(title: readonly string[], sections: ReadonlyMap<MemorySection, readonly string[]>, notes: Notes): string {
  const out = [...title];
  for (const section of SUMMARY_SECTIONS) {
    const items = section === NOTES_SECTION ? [...notes.lists, ...notes.counts] : (sections.get(section as MemorySection) ?? []);
    if (items.length > 0) out.push('', `${SECTION_PREFIX}${section}`, ...items);
  }
  return `${out.join('\n')}\n`;
}

function scoreInput(entry: DirEntry): ScoreInput {
  return { name: entry.name, type: entry.type, tier: entry.tier, confidence: entry.confidence, lastReinforced: entry.lastReinforced };
}

function byName(a: DirEntry, b: DirEntry): number {
  return compare(a.name, b.name) || compare(a.file, b.file);
}

// Code-unit order, not localeCompare: the output must not depend on the machine's locale.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
