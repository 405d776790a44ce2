import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';
import { ITEM_PREFIX, NOTES_SECTION, SECTION_PREFIX, SUMMARY_FILE_BYTES, SUMMARY_SECTIONS } from '../projections/summary/summary-sections.js';
import { traceLine } from '../projections/trace-line.js';
import { summaryViewPath, traceViewPath } from '../projections/view-paths.js';

const HEADER =
  'engram memory summary: what earlier sessions recorded, strongest first. Quoted text is a memory\'s own wording, kept as data; (global) marks a memory kept for every project.';
const GLOBAL_MARK = ' (global)';
/** Claude Code keeps 10,000 characters of hook output and previews the rest; two capped files stay far below. */
const OUTPUT_CHARS = 9500;
/** A trace view holds three sessions: a few hundred bytes. */
const TRACE_BYTES = 64 * 1024;

/**
 * The SessionStart block: the project's summary with the global one merged in (each global item
 * marked), and the last session other than this one. It only reads three small projected files;
 * a missing one leaves its part out, and with nothing at all there is nothing to print ('').
 * Only `- ` items under the sections it knows are taken from a summary file, so nothing else
 * in it can reach the context.
 */
export function sessionSummary(paths: EngramPaths, session: string, project: string): string {
  const own = readSections(join(paths.views, summaryViewPath(project)));
  const global = readSections(join(paths.views, summaryViewPath('')));
  const last = lastSession(join(paths.views, traceViewPath(project)), session);
  const blocks: string[] = [];
  for (const section of SUMMARY_SECTIONS) {
    // The last session belongs with the memories, before the footer's upkeep notes.
    if (section === NOTES_SECTION && last !== undefined) blocks.push(last);
    const items = [...(own.get(section) ?? []), ...(global.get(section) ?? []).map((item) => `${item}${GLOBAL_MARK}`)];
    if (items.length > 0) blocks.push([`${SECTION_PREFIX}${section}`, ...items].join('\n'));
  }
  if (blocks.length === 0) return '';
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

/** The trace line of the latest session that is not this one (which may already be in the view). */
function lastSession(path: string, session: string): string | undefined {
  const text = readSmall(path, TRACE_BYTES);
  if (text === undefined) return undefined;
  const view = JSON.parse(text) as { sessions?: unknown };
  const sessions = Array.isArray(view.sessions) ? (view.sessions as Array<Record<string, unknown> | null>) : [];
  const previous = sessions.find((record) => typeof record === 'object' && record !== null && record.session !== session);
  if (previous === undefined || previous === null || typeof previous.toolCalls !== 'number') return undefined;
  return traceLine({ toolCalls: previous.toolCalls }, previous.distilled === true);
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
