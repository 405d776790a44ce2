import type { MemoryFileContent } from '../../memories/memory-file.js';
import { memoryTokens } from '../../memories/similarity.js';
import type { MemoryGraph } from '../../events/distill-events.js';
import type { MemoryOrigin, MemoryStatus, MemoryType, Tier } from '../../events/memory-kinds.js';

/** One memory, as the memories projection keeps it: everything its file shows, and where it is. */
export interface MemoryRow {
  readonly id: string;
  /** Its memory directory, relative to Claude Code's config directory. */
  readonly dir: string;
  /** Its project; '' for a global memory. */
  readonly project: string;
  /** Its file name in `dir` (or in `dir/_archive/` while archived); fixed once chosen. */
  readonly file: string;
  readonly name: string;
  readonly description: string;
  readonly type: MemoryType;
  readonly tier: Tier | undefined;
  readonly body: string;
  readonly status: MemoryStatus;
  readonly confidence: number;
  readonly reinforced: number;
  readonly lastReinforced: string;
  readonly created: string;
  /** When an event last changed it (Claude Code's `metadata.modified`). */
  readonly modified: string;
  readonly pinned: boolean;
  readonly contradicts: readonly string[];
  readonly supersededBy: string | undefined;
  readonly supersededAt: string | undefined;
  readonly origin: MemoryOrigin;
  readonly originSession: string | undefined;
  /** Set while the file is in `_archive/`: since when and why. */
  readonly archived: { readonly at: string; readonly reason: string } | undefined;
  /** Frontmatter fields engram does not know, kept as they came. */
  readonly extra: MemoryFileContent['extra'];
  /** An imported file that was already where the memory is: its hash then (see MemoryProposed). */
  readonly sourceHash: string | undefined;
  /** The file's hash when its last hand or agent edit was recorded. */
  readonly editedHash: string | undefined;
  /** What the maintenance tick last found of its claims. */
  readonly verification: Verification | undefined;
  /** Entities and relations the distiller named; written beside it as `_graph/<file>.json`. */
  readonly graph?: MemoryGraph;
  /** The inline MEMORY.md entry it was converted from (see MemoryProposed); absent for most. */
  readonly indexLines?: readonly string[];
  /** The skill the user made of it (`implemented_in`), or `declined`: it is suggested as a skill no more. */
  readonly implementedIn?: string | readonly string[];
  /** The fields a recorded edit changed: an earlier telling that takes the memory over keeps these (memory-changes.ts). */
  readonly edited?: readonly string[];
  /** Per field a recorded edit set, the (time, event id) stamp of the edit that set it: the latest stamp wins, whatever the fold order. */
  readonly edits?: Readonly<Record<string, string>>;
  /** The stamps of its latest reinforcements (at most as many as can still raise its confidence), sorted. */
  readonly reinforcedAt?: readonly string[];
  /** Files it had before an earlier telling took it over under another name: let go of by its sink. */
  readonly movedFrom?: readonly string[];
}

export interface Verification {
  readonly at: string;
  /** Staleness points the results add. */
  readonly penalty: number;
  /** The claims found missing, as `kind value`. */
  readonly missing: readonly string[];
}

/** A memory directory's hygiene, as the latest maintenance tick found it. */
export interface HygieneRow {
  readonly dir: string;
  readonly at: string;
  readonly deadPaths: ReadonlyArray<{ memoryId: string; paths: readonly string[] }>;
  readonly nearDuplicates: ReadonlyArray<{ a: string; b: string; similarity: number }>;
  readonly old: readonly string[];
  readonly orphaned: boolean;
}

/** What a directory's index needs of each of its memories: a row of its own (see memories-rows.ts). */
export interface DirEntry {
  readonly id: string;
  readonly file: string;
  readonly name: string;
  readonly description: string;
  readonly type: MemoryType;
  readonly tier: Tier | undefined;
  readonly status: MemoryStatus;
  readonly confidence: number;
  readonly lastReinforced: string;
  readonly pinned: boolean;
  readonly archived: MemoryRow['archived'];
  /** Staleness points from the latest verification (0 before any). */
  readonly penalty: number;
  /** The inline MEMORY.md lines its index line takes the place of. */
  readonly indexLines?: readonly string[];
  /**
   * memoryTokens of its name and description, kept so that matching a new memory against the
   * memories that share a token with it (match-memory.ts) does not tokenize them again.
   */
  readonly tokens: readonly string[];
  /** While in force: the `posting:` chunk each of its tokens holds its id in, in the order of `tokens`. */
  readonly chunks?: readonly number[];
}

/** A token's postings in a directory, for one type (token-postings.ts). */
export interface TokenHead {
  /** Memories in force whose tokens include it. */
  readonly count: number;
  /** The chunk the next id goes to, unless full. */
  readonly last: number;
}

/** What MEMORY.md shows of an active memory, and what scores it: a row keyed by its rank (ranked-index.ts). */
export type RankedEntry = Pick<DirEntry, 'id' | 'file' | 'name' | 'description' | 'type' | 'tier' | 'confidence' | 'lastReinforced'> & {
  /** Its index line's text, made once when the row is (a render then only reads it). */
  readonly line?: string;
};

/** What the archive index shows of an archived memory: a row keyed newest first (ranked-index.ts). */
export interface ArchivedEntry {
  readonly id: string;
  readonly file: string;
  readonly name: string;
  readonly archived: NonNullable<MemoryRow['archived']>;
}

/**
 * One memory directory. Its memories' entries are rows of their own (`entry:`), so a change to
 * one memory copies nothing of the others. `asOf` is the time its memories are scored at: the
 * latest event of the directory or maintenance tick, never the wall clock.
 */
export interface DirRow {
  readonly dir: string;
  readonly project: string;
  readonly asOf: string;
  /** Distilled proposals for the project's CLAUDE.md or docs/knowledge/ still awaiting a yes or no. */
  readonly pendingRoutes?: number;
  /**
   * How many rows of its index each shelf holds: a half-life class's `rank:` rows, `arch:` and
   * `inline:` (directory-index.ts), so MEMORY.md opens only the shelves with rows on them.
   * Absent: not counted, every shelf is read.
   */
  readonly shelves?: Readonly<Record<string, number>>;
}

/** A distilled candidate meant for the project's CLAUDE.md or docs/knowledge/: a proposal, never written by a projection. */
export interface RouteRow {
  readonly routeId: string;
  readonly project: string;
  readonly session: string;
  readonly destination: 'claude_md' | 'knowledge';
  readonly name: string;
  readonly description: string;
  readonly body: string;
  readonly proposedAt: string;
  readonly status: 'proposed' | 'accepted' | 'declined';
  /** Where it was written, once accepted. */
  readonly path: string | undefined;
}

export function dirEntry(row: MemoryRow): DirEntry {
  return {
    id: row.id,
    file: row.file,
    name: row.name,
    description: row.description,
    type: row.type,
    tier: row.tier,
    status: row.status,
    confidence: row.confidence,
    lastReinforced: row.lastReinforced,
    pinned: row.pinned,
    archived: row.archived,
    penalty: row.verification?.penalty ?? 0,
    ...(row.indexLines ? { indexLines: row.indexLines } : {}),
    tokens: memoryTokens(row),
  };
}

/** Files no memory may take: the index, and the stats projection's files. */
const RESERVED = new Set(['memory.md', 'auto-stats.md', 'auto-tool-usage.md', 'auto-errors.md']);

/** Whether a memory may have this file name at all (the index and the stats files may not). */
export function isReservedFileName(file: string): boolean {
  return RESERVED.has(file.toLowerCase());
}

/**
 * A file name for a new memory: its name, lowercased, in ASCII letters, digits and dashes, at
 * most 60 characters, unique in its directory (`-2`, `-3`… when taken). A file name it came
 * with (an import) is kept when it is free.
 */
export function fileNameFor(name: string, wanted: string | undefined, taken: ReadonlySet<string> | ((lowercased: string) => boolean)): string {
  const isTaken = typeof taken === 'function' ? taken : (file: string) => taken.has(file);
  const free = (file: string) => !isTaken(file.toLowerCase()) && !isReservedFileName(file);
  if (wanted !== undefined && free(wanted)) return wanted;
  const stem =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'memory';
  for (let n = 1; ; n++) {
    const file = n === 1 ? `${stem}.md` : `${stem}-${n}.md`;
    if (free(file)) return file;
  }
}
