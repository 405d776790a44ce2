import type { RowReader } from '../projector.js';
import type { ArchivedEntry, DirEntry, DirRow, HygieneRow, MemoryRow, RankedEntry, RouteRow, TokenHead } from './memory-row.js';

/**
 * The memories projection's rows, kind by kind. Each kind has its own key prefix and row type,
 * and a key made by a constructor here carries its row's type, so a row is read as what its key
 * says it is (`memoryRow(rows, memoryKey(id))`), never cast where it is used.
 *
 * The layout keeps what one memory changes in rows of its own, so proposing a memory costs the
 * same in a directory of 10 or of 5,000: its `mem:` row, its `entry:` row (what the directory's
 * index needs of it), the `token:` and `posting:` rows of its own name and description tokens
 * (the near-duplicate check's index, in chunks) and its `file:` row (which file names are taken). Its place in
 * MEMORY.md is a row too: `rank:` while it is shown (keyed so that a directory's rows read in key
 * order come best first, see ranked-index.ts), `arch:` while archived (newest first), `inline:`
 * for the inline lines it replaces; so the index reads its first 200 lines, not every entry.
 */
export interface MemoriesRowKinds {
  /** One memory: everything its file shows. */
  mem: MemoryRow;
  /** What its directory's MEMORY.md and summary need of one memory, keyed by directory then memory. */
  entry: DirEntry;
  /** An active memory as MEMORY.md shows it, keyed by half-life class and rank (ranked-index.ts). */
  rank: RankedEntry;
  /** An archived memory as the archive index points at it, keyed newest first. */
  arch: ArchivedEntry;
  /** The inline MEMORY.md lines a memory's index line takes the place of. */
  inline: readonly string[];
  /** One memory directory: its project, the time it is scored at, its pending routes. */
  dir: DirRow;
  /** Every directory's key, so a maintenance tick can rescore them all. */
  dirs: readonly string[];
  /** When the maintenance tick last ran. */
  maintained: { readonly at: string };
  /** A directory's hygiene, as the latest maintenance tick found it. */
  hygiene: HygieneRow;
  /** A distilled proposal for CLAUDE.md or docs/knowledge/. */
  route: RouteRow;
  /**
   * How many of a directory's memories in force of one type have a token among theirs, and the
   * last `posting:` chunk their ids went to (token-postings.ts).
   */
  token: TokenHead;
  /** One chunk of those memories' ids: at most POSTING_CHUNK, so adding one copies none of the others. */
  posting: readonly string[];
  /** The memory that holds a file name (lowercased) in a directory. */
  file: string;
  /**
   * The memory a proposal that said the same again became part of: the id that proposal named,
   * and the id of the memory that took its place when an earlier telling arrived (memory-changes.ts),
   * so an event naming either id finds the memory whatever order this machine folded them in.
   */
  alias: string;
}

export type MemoriesRowKind = keyof MemoriesRowKinds;
export type MemoriesRow = MemoriesRowKinds[MemoriesRowKind];

/** A key whose row is of type R: made only by the constructors below. */
export type MemoriesKey<R extends MemoriesRow> = string & { readonly __row?: R };

/** Separates a directory from what follows it in a key: no directory path holds a newline. */
const SEP = '\n';

export const memoryKey = (id: string): MemoriesKey<MemoryRow> => `mem:${id}`;
export const entryKey = (dir: string, id: string): MemoriesKey<DirEntry> => `entry:${dir}${SEP}${id}`;
/** The prefix of every entry of a directory, for a scan. */
export const entryPrefix = (dir: string): string => `entry:${dir}${SEP}`;
/** `rank`: a string whose key order is best first within one half-life class `cls` (ranked-index.ts). */
export const rankKey = (dir: string, cls: string, rank: string, id: string): MemoriesKey<RankedEntry> => `rank:${dir}${SEP}${cls}${SEP}${rank}${SEP}${id}`;
export const rankPrefix = (dir: string, cls: string): string => `rank:${dir}${SEP}${cls}${SEP}`;
/** `newest`: a string whose key order is the archive time's, newest first (ranked-index.ts). */
export const archivedKey = (dir: string, newest: string, id: string): MemoriesKey<ArchivedEntry> => `arch:${dir}${SEP}${newest}${SEP}${id}`;
export const archivedPrefix = (dir: string): string => `arch:${dir}${SEP}`;
export const inlineKey = (dir: string, id: string): MemoriesKey<readonly string[]> => `inline:${dir}${SEP}${id}`;
export const inlinePrefix = (dir: string): string => `inline:${dir}${SEP}`;
export const dirKey = (dir: string): MemoriesKey<DirRow> => `dir:${dir}`;
export const DIRS: MemoriesKey<readonly string[]> = 'dirs';
export const MAINTAINED: MemoriesKey<{ readonly at: string }> = 'maintained';
export const hygieneKey = (dir: string): MemoriesKey<HygieneRow> => `hygiene:${dir}`;
export const routeKey = (routeId: string): MemoriesKey<RouteRow> => `route:${routeId}`;
export const tokenKey = (dir: string, type: string, token: string): MemoriesKey<TokenHead> => `token:${dir}${SEP}${type}${SEP}${token}`;
export const postingKey = (dir: string, type: string, token: string, chunk: number): MemoriesKey<readonly string[]> => `posting:${dir}${SEP}${type}${SEP}${token}${SEP}${chunk}`;
export const fileKey = (dir: string, file: string): MemoriesKey<string> => `file:${dir}${SEP}${file.toLowerCase()}`;
export const aliasKey = (id: string): MemoriesKey<string> => `alias:${id}`;

/** The prefix each kind's keys start with, to scan one kind. */
export const KIND_PREFIX = {
  mem: 'mem:', entry: 'entry:', rank: 'rank:', arch: 'arch:', inline: 'inline:', dir: 'dir:', dirs: 'dirs', maintained: 'maintained', hygiene: 'hygiene:', route: 'route:', token: 'token:', posting: 'posting:', file: 'file:', alias: 'alias:',
} as const satisfies Record<MemoriesRowKind, string>;

/** Which kind a stored key is; undefined for a key of another projection sharing the lane. */
export function kindOf(key: string): MemoriesRowKind | undefined {
  if (key === DIRS) return 'dirs';
  if (key === MAINTAINED) return 'maintained';
  const colon = key.indexOf(':');
  const prefix = colon < 0 ? '' : key.slice(0, colon);
  return prefix === 'mem' || prefix === 'entry' || prefix === 'rank' || prefix === 'arch' || prefix === 'inline' || prefix === 'dir' || prefix === 'hygiene' || prefix === 'route' || prefix === 'token' || prefix === 'posting' || prefix === 'file' || prefix === 'alias' ? prefix : undefined;
}

export const isMemoryKey = (key: string): boolean => key.startsWith(KIND_PREFIX.mem);
export const isDirKey = (key: string): boolean => key.startsWith(KIND_PREFIX.dir);
export const memoryIdOf = (key: string): string => key.slice(KIND_PREFIX.mem.length);

/** The row under a key made above, as its key's type. */
export function rowAt<R extends MemoriesRow>(rows: RowReader<unknown>, key: MemoriesKey<R>): R | undefined {
  // The one place a row is narrowed: a key's constructor fixes what is stored under it.
  return rows.get(key) as R | undefined;
}

/** A changed row, as its key's kind says, for lanes that read the memories projection's changes. */
export type TypedChange = { [K in MemoriesRowKind]: { kind: K; key: string; row: MemoriesRowKinds[K] | null } }[MemoriesRowKind];

/** A stored key and row, typed by the key's kind; undefined for another projection's key. */
export function typedRow(key: string, row: unknown): TypedChange | undefined {
  const kind = kindOf(key);
  // Narrowed by the key, as rowAt does: the key's kind decides the row's type.
  return kind === undefined ? undefined : ({ kind, key, row } as TypedChange);
}

/** Reads rows under a prefix: a sink's scan (SinkContext) or a lane's committed rows (CommittedRows.entries). */
export type ScanRows = (prefix: string) => AsyncIterable<[string, unknown]>;

/** A directory's entries, by id: what its MEMORY.md, summary and the prompts that list its memories read. */
export async function entriesOf(scan: ScanRows, dir: string): Promise<DirEntry[]> {
  const entries: DirEntry[] = [];
  // Rows under entryKey's prefix are entries.
  for await (const [, row] of scan(entryPrefix(dir))) entries.push(row as DirEntry);
  return entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Every row of one kind, typed: for the reconciler, the maintenance tick, the viewer and commands. */
export async function* rowsOfKind<K extends MemoriesRowKind>(scan: ScanRows, kind: K): AsyncIterable<[string, MemoriesRowKinds[K]]> {
  // Rows under a kind's prefix are of that kind.
  for await (const [key, row] of scan(KIND_PREFIX[kind])) if (kindOf(key) === kind) yield [key, row as MemoriesRowKinds[K]];
}

/** The directory of an entry's key. */
export function entryDirOf(key: string): string {
  return key.slice(KIND_PREFIX.entry.length, key.indexOf(SEP));
}

/** The committed row under a key made above, as its key's type (a lane's CommittedRows). */
export async function committedRow<R extends MemoriesRow>(rows: { get(key: string): Promise<unknown> }, key: MemoriesKey<R>): Promise<R | undefined> {
  // Narrowed by the key, as rowAt does.
  return (await rows.get(key)) as R | undefined;
}
