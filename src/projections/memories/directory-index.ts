import { confidenceOf, halfLifeDays, lastConfirmed, SCORING, strength } from '../../memories/scores.js';
import { ARCHIVE_POINTERS, INDEX_LINE_LIMIT, type ArchivePointer, type IndexEntry, type MemoryIndex } from '../../ownership/memory-index-lines.js';
import { archivedKey, archivedPrefix, inlineKey, inlinePrefix, rankKey, rankPrefix, type MemoriesRow, type ScanRows } from './memories-rows.js';
import type { ArchivedEntry, DirEntry, DirRow, RankedEntry } from './memory-row.js';

/**
 * What a directory's MEMORY.md shows: its active memories best first by strength as of the
 * directory's time, and a pointer to each archived one, newest first.
 *
 * Proposing a memory rewrites its directory's index, and reading every entry of the directory
 * each time made a proposal cost grow with the directory (issue 22). The projector therefore
 * keeps each shown memory in a `rank:` row keyed so that key order is strength order within a
 * half-life class, for every time at once: strength is c·2^(−(now − t)/h), so within one h it
 * orders as log2(c) + t/h whatever `now` is. The render reads each class best first, merges the
 * classes lazily, and stops once the lines the index can hold are decided. A date after `now`
 * counts as age 0 (the strength is then c, less than its key says): the key stays an upper
 * bound, so such a memory is only read early, never missed. Archived memories have `arch:` rows
 * keyed newest first, and the inline lines memories replace have `inline:` rows (few: only
 * memories converted from a standalone MEMORY.md carry them).
 */

const DAY_MS = 86_400_000;
/** Room for rounding between a key and the strength computed from the same row. */
const SLACK = 1 + 1e-9;
/** Longest description an index line shows. */
const INDEX_DESCRIPTION = 150;
/** The class of memories whose strength does not change with time: undated, or of a tier that never decays. */
const CONSTANT = 'c';

/** Every half-life class a memory can be in (the scoring table's half-lives), and the constant one. */
const CLASSES: readonly string[] = [
  CONSTANT,
  ...new Set([...Object.values(SCORING.halfLifeDaysByType), ...Object.values(SCORING.halfLifeDaysByTier)].filter(decays).map(classOf)),
];

function decays(halfLife: number): boolean {
  return halfLife > 0 && Number.isFinite(halfLife);
}

function classOf(halfLife: number): string {
  return `h${halfLife}`;
}

/** A memory's class and its rank value in it: greater is stronger, at any time. */
function rankOf(entry: RankedEntry): { cls: string; value: number } {
  const halfLife = halfLifeDays(entry);
  const confidence = confidenceOf(entry);
  const at = lastConfirmed({ lastReinforced: entry.lastReinforced });
  if (!decays(halfLife) || at === undefined) return { cls: CONSTANT, value: confidence };
  return { cls: classOf(halfLife), value: Math.log2(confidence) + at.getTime() / (DAY_MS * halfLife) };
}

/**
 * The most strength a memory of class `cls` whose key is `key` can have at `nowMs` (its
 * strength, but for a future date), read from the rank the key holds.
 */
function boundOf(cls: string, key: string, at: number, nowMs: number): number {
  const value = fromDescending(key.slice(at, at + 16));
  return cls === CONSTANT ? value : 2 ** (value - nowMs / (DAY_MS * Number(cls.slice(1))));
}

function score(entry: RankedEntry, now: Date): number {
  return strength({ name: entry.name, type: entry.type, tier: entry.tier, confidence: entry.confidence, lastReinforced: entry.lastReinforced }, now);
}

/** The rows an entry keeps for its directory's index (see the file comment), by key. */
export function indexRows(dir: string, entry: DirEntry | undefined): Map<string, MemoriesRow> {
  const rows = new Map<string, MemoriesRow>();
  if (entry === undefined) return rows;
  if (entry.status === 'active' && !entry.archived) {
    const shown: RankedEntry = {
      id: entry.id, file: entry.file, name: entry.name, description: entry.description, type: entry.type, tier: entry.tier,
      confidence: entry.confidence, lastReinforced: entry.lastReinforced, line: shownEntry(entry).description,
    };
    const { cls, value } = rankOf(shown);
    rows.set(rankKey(dir, cls, descending(value), entry.id), shown);
  }
  if (entry.archived) {
    const archived: ArchivedEntry = { id: entry.id, file: entry.file, name: entry.name, archived: entry.archived };
    rows.set(archivedKey(dir, newestFirst(entry.archived.at), entry.id), archived);
  }
  if (entry.indexLines) rows.set(inlineKey(dir, entry.id), entry.indexLines);
  return rows;
}

/** The shelf an index row's key is on (see DirRow.shelves): its class for a `rank:` row, else its kind. */
function shelfOf(key: string): string {
  if (key.startsWith('rank:')) return key.split('\n')[1]!;
  return key.slice(0, key.indexOf(':'));
}

/** The directory's row with its shelves counted again, index rows `removed` and `added`. */
export function reshelved(dir: DirRow, removed: Iterable<string>, added: Iterable<string>): DirRow {
  const shelves: Record<string, number> = { ...dir.shelves };
  for (const key of removed) shelves[shelfOf(key)] = (shelves[shelfOf(key)] ?? 0) - 1;
  for (const key of added) shelves[shelfOf(key)] = (shelves[shelfOf(key)] ?? 0) + 1;
  const kept = Object.fromEntries(Object.entries(shelves).filter(([, count]) => count !== 0).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { ...dir, shelves: kept };
}

/** Whether MEMORY.md must read a shelf: it has rows, or they were not counted. */
function onShelf(dir: DirRow, shelf: string): boolean {
  return dir.shelves === undefined || (dir.shelves[shelf] ?? 0) > 0;
}

/** The full render, from every entry of the directory: what the ranked one must equal. */
export function memoryIndex(dir: DirRow, entries: readonly DirEntry[]): MemoryIndex {
  const now = new Date(dir.asOf);
  const shown = entries
    .filter((entry) => entry.status === 'active' && !entry.archived)
    .map((entry) => ({ entry, score: score(entry, now) }))
    .sort(byStrength)
    .map(({ entry }) => shownEntry(entry));
  const archived = entries
    .flatMap((entry) => (entry.archived ? [{ id: entry.id, file: entry.file, name: entry.name, archived: entry.archived }] : []))
    .sort(newestArchived)
    .map(pointerOf);
  return { shown, archived, replaces: entries.flatMap((entry) => entry.indexLines ?? []) };
}

/**
 * The render from the ranked rows: the first `limits.shown` entries and `limits.archived`
 * pointers of what memoryIndex would give, marked when more follow (`moreShown`,
 * `moreArchived`), so that the merge can say when it would have looked further.
 */
export async function rankedMemoryIndex(dir: DirRow, scan: ScanRows, limits = { shown: INDEX_LINE_LIMIT, archived: ARCHIVE_POINTERS }): Promise<MemoryIndex> {
  const now = new Date(dir.asOf);
  const nowMs = now.getTime();
  const iterators: Array<AsyncIterator<[string, unknown]>> = [];
  const picked: Array<{ entry: RankedEntry; score: number }> = [];
  let moreShown = false;
  try {
    // Each class's next row, and where its key holds the rank.
    const heads: Array<{ iterator: AsyncIterator<[string, unknown]>; cls: string; at: number; entry: RankedEntry; bound: number }> = [];
    for (const cls of CLASSES) {
      if (!onShelf(dir, cls)) continue;
      const prefix = rankPrefix(dir.dir, cls);
      const iterator = scan(prefix)[Symbol.asyncIterator]();
      iterators.push(iterator);
      const first = await iterator.next();
      // Rows under rankPrefix are RankedEntry (rankKey).
      if (!first.done) heads.push({ iterator, cls, at: prefix.length, entry: first.value[1] as RankedEntry, bound: boundOf(cls, first.value[0], prefix.length, nowMs) });
    }
    // The strengths of the best `limits.shown` read so far, strongest first.
    const best: number[] = [];
    while (heads.length > 0) {
      let top = 0;
      // A NaN bound (no valid time) counts as the highest: then nothing is left unread.
      for (let i = 1; i < heads.length; i++) if (!(heads[i]!.bound <= heads[top]!.bound)) top = i;
      const head = heads[top]!;
      if (best.length >= limits.shown && best[limits.shown - 1]! > head.bound * SLACK) {
        moreShown = true;
        break;
      }
      const strengthNow = score(head.entry, now);
      picked.push({ entry: head.entry, score: strengthNow });
      best.splice(insertionPoint(best, strengthNow), 0, strengthNow);
      if (best.length > limits.shown) best.pop();
      const next = await head.iterator.next();
      if (next.done) heads.splice(top, 1);
      else {
        head.entry = next.value[1] as RankedEntry;
        head.bound = boundOf(head.cls, next.value[0], head.at, nowMs);
      }
    }
  } finally {
    for (const iterator of iterators) await iterator.return?.();
  }
  picked.sort(byStrength);
  const shown = (moreShown ? picked.slice(0, limits.shown) : picked).map(({ entry }) => shownEntry(entry));

  const archivedRows: ArchivedEntry[] = [];
  let moreArchived = false;
  for await (const [, row] of onShelf(dir, 'arch') ? scan(archivedPrefix(dir.dir)) : []) {
    // Rows under archivedPrefix are ArchivedEntry (archivedKey), newest first: the last of the
    // first `limits.archived` decides, and those archived at the same time after it tie with it.
    const entry = row as ArchivedEntry;
    if (archivedRows.length >= limits.archived && entry.archived.at !== archivedRows[limits.archived - 1]!.archived.at) {
      moreArchived = true;
      break;
    }
    archivedRows.push(entry);
  }
  archivedRows.sort(newestArchived);
  const archived = (moreArchived ? archivedRows.slice(0, limits.archived) : archivedRows).map(pointerOf);

  const replaces: string[] = [];
  // Rows under inlinePrefix are lists of lines (inlineKey).
  for await (const [, lines] of onShelf(dir, 'inline') ? scan(inlinePrefix(dir.dir)) : []) replaces.push(...(lines as readonly string[]));
  return { shown, archived, replaces, ...(moreShown ? { moreShown } : {}), ...(moreArchived ? { moreArchived } : {}) };
}

function byStrength(a: { entry: RankedEntry; score: number }, b: { entry: RankedEntry; score: number }): number {
  return b.score - a.score || compare(a.entry.name, b.entry.name) || compare(a.entry.file, b.entry.file);
}

function newestArchived(a: ArchivedEntry, b: ArchivedEntry): number {
  return compare(b.archived.at, a.archived.at) || compare(a.file, b.file);
}

function shownEntry(entry: RankedEntry): IndexEntry {
  return { file: entry.file, description: entry.line ?? oneLine(entry.description || entry.name) };
}

function pointerOf(entry: ArchivedEntry): ArchivePointer {
  return {
    file: `_archive/${entry.file}`,
    name: oneLine(entry.name).replace(/[[\]]/g, ''),
    note: oneLine(`archived ${entry.archived.at.slice(0, 10)}: ${entry.archived.reason}`),
  };
}

/** Where `value` goes in `sorted` (strongest first), after any equal to it. */
function insertionPoint(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! >= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A number as 16 hex digits whose string order is the numbers' order, greatest first. */
function descending(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  let high = view.getUint32(0);
  let low = view.getUint32(4);
  // IEEE 754 as an ascending unsigned integer: negatives inverted, positives with the sign bit set.
  if (high & 0x8000_0000) {
    high = ~high >>> 0;
    low = ~low >>> 0;
  } else high = (high | 0x8000_0000) >>> 0;
  // Then inverted, for greatest first.
  return ((~high >>> 0).toString(16).padStart(8, '0')) + ((~low >>> 0).toString(16).padStart(8, '0'));
}

/** The number `descending` wrote. */
function fromDescending(hex: string): number {
  let high = ~Number.parseInt(hex.slice(0, 8), 16) >>> 0;
  let low = ~Number.parseInt(hex.slice(8), 16) >>> 0;
  if (high & 0x8000_0000) high = (high & 0x7fff_ffff) >>> 0;
  else {
    high = ~high >>> 0;
    low = ~low >>> 0;
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, high);
  view.setUint32(4, low);
  return view.getFloat64(0);
}

/**
 * A string as hex digits whose order is the strings' (by UTF-16 code unit, as `<` compares them)
 * reversed: each unit inverted, and `g` (after every hex digit) at the end, so a string comes
 * after every longer one it begins.
 */
function newestFirst(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += (0xffff - text.charCodeAt(i)).toString(16).padStart(4, '0');
  return `${out}g`;
}

/**
 * What the index shows of a memory is data: one line, no way to close the link or open markup.
 * Claude Code loads MEMORY.md into the prompt as it is, so `<` and `>` are written as `&lt;` and
 * `&gt;` (no `</system-reminder>` can close what holds it), `](` as `] (` (no link to another
 * file can be forged, which the merge would take for that file's line), and invisible format
 * characters (bidi overrides, zero-width) are dropped, so what a reader sees is what is there.
 */
function oneLine(text: string): string {
  const flat = text
    .replace(/[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = [...flat].length > INDEX_DESCRIPTION ? `${[...flat].slice(0, INDEX_DESCRIPTION - 1).join('')}…` : flat;
  return cut.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\]\(/g, '] (');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
