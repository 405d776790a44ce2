import type { Change } from './projector.js';

/** Where a projected file lives: under ENGRAM_HOME/views, or under Claude Code's config dir. */
export type FileRoot = 'views' | 'claude';

/** Replace one file with what `render` returns. Rendered once per batch, from immutable input. */
export interface FileChange extends Change {
  readonly kind: 'file';
  readonly root: FileRoot;
  /** Relative to its root, with `/` separators. */
  readonly path: string;
  readonly render: () => string;
}

/** Make MEMORY.md in `dir` link to these files, keeping every other line there as it is. */
export interface IndexChange extends Change {
  readonly kind: 'memory-index';
  /** The memory directory, relative to the claude root. */
  readonly dir: string;
  readonly entries: readonly IndexEntry[];
}

export interface IndexEntry {
  file: string;
  description: string;
}

export type FileSinkChange = FileChange | IndexChange;

export function fileChange(root: FileRoot, path: string, render: () => string): FileChange {
  return { kind: 'file', key: `file:${root}:${path}`, root, path, render };
}

export function indexChange(dir: string, entries: readonly IndexEntry[]): IndexChange {
  return { kind: 'memory-index', key: `index:${dir}`, dir, entries };
}

/** A name safe as one path segment, the same for the same id on every run. */
export function fileSafe(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120);
  return safe === id ? safe : `${safe}-${checksum(id)}`;
}

function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
