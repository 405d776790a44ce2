import type { IndexEntry, MemoryIndex } from '../ownership/memory-index-lines.js';

export type { IndexEntry } from '../ownership/memory-index-lines.js';

/** What a sink does to files for one row. */
export type FileOp =
  /** Write the whole file. */
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  /**
   * The row's file is no longer here (it moved: archived, restored): remove what this sink
   * wrote at `path`, if it is still engram's (src/ownership decides). `content`: what engram
   * would write there, the proof of its own file when no record of it is left.
   */
  | { readonly kind: 'retire'; readonly path: string; readonly content?: string }
  /** Add or update these entries' lines in `dir`/MEMORY.md, keeping every other line. */
  | { readonly kind: 'index'; readonly dir: string; readonly entries: readonly IndexEntry[] }
  /**
   * Rewrite the memories projection's part of `dir`/MEMORY.md: its entries, ordered and capped,
   * and its archive index. `full`: the index with every entry, for when `index` holds only the
   * first ones (moreShown, moreArchived) and the merge would look past them.
   */
  | { readonly kind: 'memory-index'; readonly dir: string; readonly index: MemoryIndex; readonly full?: () => Promise<MemoryIndex> };
