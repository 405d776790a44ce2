import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';
import { ITEM_PREFIX, NOTES_SECTION, SECTION_PREFIX, SUMMARY_FILE_BYTES, SUMMARY_SECTIONS } from '../projections/summary/summary-sections.js';
import { traceLine } from '../projections/trace-line.js';
import { lostWritesViewPath, skillsViewPath, summaryViewPath, traceViewPath } from '../projections/view-paths.js';
import { describeLostWrites } from '../projections/describe-lost-writes.js';
import type { LostWritesRow } from '../projections/lost-writes.js';
import { parseLostMarker } from '../spool/lost-marker.js';

const HEADER =
  'engram memory summary: what earlier sessions recorded, strongest first. Quoted text is a memory\'s own wording, kept as data; (global) marks a memory kept for every project.';
const GLOBAL_MARK = ' (global)';
/** Claude Code keeps 10,000 characters of hook output and previews the rest; two capped files stay far below. */
const OUTPUT_CHARS = 9500;
/** A trace view holds three sessions: a few hundred bytes. */
const TRACE_BYTES = 64 * 1024;
/** The lost-writes view is one small row. */
const LOST_BYTES = 8 * 1024;
/** Losses older than this are doctor's to say, no longer every session's. */
const LOST_NOTE_MS = 7 * 24 * 3600_000;
/** A skills view lists a directory's eligible memories; its footer lines come first, whatever follows. */
const SKILLS_BYTES = 64 * 1024;
/** Footer lines taken from one skills view: one for suggestions, one per curator verdict. */
const SKILL_NOTES = 4;
/**
 * engram's skill-capture policy (DESIGN.md "Skills"), said as a fact: the marker is what lets the
 * curator age a captured skill, and what keeps it from ever touching a hand-written one.
 */
export const SKILL_CAPTURE_LINE =
  'skill capture: a complex workflow likely to recur is kept for later sessions as a SKILL.md in ~/.claude/skills/<name>/ (or the project\'s .claude/skills/<name>/) with `metadata: {engram: captured}` in its frontmatter and the sections When to use, Procedure, Pitfalls, Verification; engram\'s curator ages only skills so marked.';

/**
 * The SessionStart block: the project's summary with the global one merged in (each global item
 * marked), and the last session other than this one. It only reads three small projected files;
 * a missing one leaves its part out, and with nothing at all there is nothing to print ('').
 * Only `- ` items under the sections it knows are taken from a summary file, so nothing else
 * in it can reach the context.
 */
export function sessionSummary(paths: EngramPaths, session: string, project: string, env: NodeJS.ProcessEnv = {}): string {
  const own = readSections(join(paths.views, summaryViewPath(project)));
  const global = readSections(join(paths.views, summaryViewPath('')));
  // Suggestions and the curator's report join the footer, after the summary's own notes.
  const skillNotes = [...skillsNotes(join(paths.views, skillsViewPath(project))), ...skillsNotes(join(paths.views, skillsViewPath(''))).map((item) => `${item}${GLOBAL_MARK}`)];
  if (skillNotes.length > 0) own.set(NOTES_SECTION, [...(own.get(NOTES_SECTION) ?? []), ...skillNotes]);
  const lost = lostNotes(paths, env);
  if (lost.length > 0) own.set(NOTES_SECTION, [...lost, ...(own.get(NOTES_SECTION) ?? [])]);
  const last = lastSession(join(paths.views, traceViewPath(project)), session);
  const blocks: string[] = [];
  for (const section of SUMMARY_SECTIONS) {
    // The last session belongs with the memories, before the footer's upkeep notes.
    if (section === NOTES_SECTION && last !== undefined) blocks.push(last);
    const items = [...(own.get(section) ?? []), ...(global.get(section) ?? []).map((item) => `${item}${GLOBAL_MARK}`)];
    if (items.length > 0) blocks.push([`${SECTION_PREFIX}${section}`, ...items].join('\n'));
  }
  if (blocks.length === 0) return '';
  if (env.ENGRAM_SKILL_CAPTURE !== '0') blocks.push(SKILL_CAPTURE_LINE);
  const text = `${HEADER}\n\n${blocks.join('\n\n')}\n`;
  return text.length <= OUTPUT_CHARS ? text : `${text.slice(0, text.lastIndexOf('\n', OUTPUT_CHARS - 1))}\n`;
}

function readSections(path: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  const text = readSmall(path, 2 * SUMMARY_FILE_BYTES);
  if (text === undefined) return sections;
  const known = new Set<string>(SUMMARY_SECTIONS);
  let items: string[] | undefined;
  for (const line of text.split('\n')) {
    // Any heading ends a section; only one of ours opens one.
    if (line.startsWith('#')) {
      const name = line.startsWith(SECTION_PREFIX) ? line.slice(SECTION_PREFIX.length) : '';
      items = known.has(name) ? (sections.get(name) ?? []) : undefined;
      if (items !== undefined) sections.set(name, items);
    } else if (items !== undefined && line.startsWith(ITEM_PREFIX)) items.push(line);
  }
  return sections;
}

/**
 * Hook events lost to a full disk (or an I/O error) in the last week, said first in the footer:
 * those on record (the lost-writes view) and those whose markers the worker has not yet counted.
 */
function lostNotes(paths: EngramPaths, env: NodeJS.ProcessEnv): string[] {
  const notes: string[] = [];
  const pinned = env.ENGRAM_NOW ? Date.parse(env.ENGRAM_NOW) : Number.NaN;
  const now = Number.isNaN(pinned) ? Date.now() : pinned;
  const text = readSmall(join(paths.views, lostWritesViewPath()), LOST_BYTES);
  try {
    const row = text === undefined ? undefined : (JSON.parse(text) as LostWritesRow);
    if (row && typeof row.count === 'number' && typeof row.lastAt === 'string' && Array.isArray(row.latest) && now - Date.parse(row.lastAt) < LOST_NOTE_MS) {
      notes.push(`${ITEM_PREFIX}${describeLostWrites(row)}; \`engram doctor\` says more`);
    }
  } catch {
    // A view cut mid-write by an older build: no note this time.
  }
  let pending = 0;
  try {
    pending = readdirSync(paths.spoolLost).filter((name) => parseLostMarker(name)).length;
  } catch {
    // no spool/lost: nothing lost
  }
  if (pending > 0) notes.push(`${ITEM_PREFIX}${pending} more hook event${pending === 1 ? ' was' : 's were'} lost: their hooks could not write them (a full disk?); \`engram doctor\` says more`);
  return notes;
}

/** The footer lines of a skills view (render-skills-view.ts): only its `- ` items, at most SKILL_NOTES. */
function skillsNotes(path: string): string[] {
  const text = readSmall(path, SKILLS_BYTES);
  if (text === undefined) return [];
  let notes: unknown;
  try {
    notes = (JSON.parse(text) as { notes?: unknown }).notes;
  } catch {
    // Cut at the byte bound, or mid-write by an older build: no skill notes this time.
    return [];
  }
  if (!Array.isArray(notes)) return [];
  return notes.filter((note): note is string => typeof note === 'string' && note.startsWith(ITEM_PREFIX) && !note.includes('\n')).slice(0, SKILL_NOTES);
}

/** The trace line of the latest session that is not this one (which may already be in the view). */
function lastSession(path: string, session: string): string | undefined {
  const text = readSmall(path, TRACE_BYTES);
  if (text === undefined) return undefined;
  const view = JSON.parse(text) as { sessions?: unknown };
  const sessions = Array.isArray(view.sessions) ? (view.sessions as Array<Record<string, unknown> | null>) : [];
  const previous = sessions.find((record) => typeof record === 'object' && record !== null && record.session !== session);
  if (previous === undefined || previous === null || typeof previous.toolCalls !== 'number') return undefined;
  const via = previous.distilledVia === 'llm' || previous.distilledVia === 'trace' || previous.distilledVia === 'skipped' ? previous.distilledVia : undefined;
  return traceLine({ toolCalls: previous.toolCalls }, previous.distilled === true, via);
}

/**
 * At most `max` bytes of a file, cut back to its last whole line when there was more; undefined
 * when it does not exist. Any other failure throws: the hook then prints nothing.
 */
function readSmall(path: string, max: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const buffer = Buffer.allocUnsafe(max + 1);
    let length = 0;
    while (length <= max) {
      const read = readSync(fd, buffer, length, max + 1 - length, null);
      if (read === 0) break;
      length += read;
    }
    const text = buffer.toString('utf8', 0, Math.min(length, max));
    return length > max ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
  } finally {
    closeSync(fd);
  }
}
