import type { Dirent } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A bounded look at a project's working tree, for claim verification: list it breadth first
 * (so shallow files come first when the cap cuts), and scan source files for identifiers. Both
 * stop at their caps or when `stopped()` says so, and say whether they saw everything: only a
 * complete look may conclude that something is missing.
 */

/** Directories of dependencies, build output, caches and VCS data: not the project's own source. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(
  (
    'node_modules .git .hg .svn dist build out coverage target vendor bower_components .next .nuxt .svelte-kit .turbo ' +
    '.cache .parcel-cache .venv venv __pycache__ .tox .mypy_cache .pytest_cache .ruff_cache .gradle .idea .yarn ' +
    '.pnpm-store .terraform'
  ).split(' '),
);

/** Files the identifier scan reads: source and configuration, not docs (a README naming a deleted function is no proof). */
export const SOURCE_EXTENSIONS: readonly string[] = (
  'ts tsx mts cts js jsx mjs cjs py pyi rb go rs java kt kts scala groovy swift c h cc cpp cxx hpp hh cs fs vb php pl pm ' +
  'lua dart ex exs erl hrl clj cljs elm hs ml mli jl sh bash zsh sql graphql gql proto prisma vue svelte astro json ' +
  'yaml yml toml'
).split(' ');

/** Lockfiles are huge and name packages, not code. */
const SCAN_SKIPPED_FILES: ReadonlySet<string> = new Set(['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'poetry.lock', 'uv.lock', 'composer.lock', 'Gemfile.lock', 'go.sum', 'bun.lock']);

export interface ProjectTree {
  /** Paths relative to the root, `/`-separated, breadth first. */
  readonly files: readonly string[];
  readonly dirs: readonly string[];
  /** Every directory was read and the cap was not reached. */
  readonly complete: boolean;
}

export interface TreeLimits {
  readonly maxEntries: number;
  /** Why to stop now (aborted, out of time), or undefined to go on. */
  readonly stopped: () => string | undefined;
}

export async function walkProjectTree(root: string, limits: TreeLimits): Promise<ProjectTree> {
  const files: string[] = [];
  const dirs: string[] = [];
  let complete = true;
  const queue: string[] = [''];
  for (let head = 0; head < queue.length; head++) {
    if (limits.stopped() !== undefined) {
      complete = false;
      break;
    }
    const dir = queue[head]!;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      complete = false;
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length + dirs.length >= limits.maxEntries) {
        return { files, dirs, complete: false };
      }
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        dirs.push(path);
        queue.push(path);
      } else {
        // Symbolic links are listed by name, never followed: a link can lead anywhere, loops included.
        files.push(path);
      }
    }
  }
  return { files, dirs, complete };
}

export interface ScanLimits extends TreeLimits {
  readonly maxBytes: number;
  readonly maxFileBytes: number;
}

export interface ScanResult {
  readonly found: ReadonlySet<string>;
  /** Every source file was read whole: a term not found is not in the source. */
  readonly complete: boolean;
  /** Why it is not complete. */
  readonly incompleteBecause?: string;
}

/**
 * Which of `terms` occur as whole words (not inside a longer identifier) in the tree's source
 * files. Stops as soon as every term was found, or a cap is reached.
 */
export async function scanForIdentifiers(root: string, tree: ProjectTree, terms: readonly string[], limits: ScanLimits): Promise<ScanResult> {
  const pending = new Set(terms);
  const found = new Set<string>();
  let incompleteBecause: string | undefined = tree.complete ? undefined : 'the tree is larger than the scan budget';
  let bytes = 0;
  const buffer = Buffer.alloc(limits.maxFileBytes + 1);
  for (const file of tree.files) {
    if (pending.size === 0) break;
    const stop = limits.stopped();
    if (stop !== undefined) {
      incompleteBecause = stop;
      break;
    }
    const name = file.slice(file.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    if (dot <= 0 || !SOURCE_EXTENSIONS.includes(name.slice(dot + 1).toLowerCase()) || SCAN_SKIPPED_FILES.has(name)) continue;
    if (bytes >= limits.maxBytes) {
      incompleteBecause = 'the source is larger than the scan budget';
      break;
    }
    let length: number;
    try {
      const handle = await open(join(root, file), 'r');
      try {
        if (!(await handle.stat()).isFile()) continue;
        ({ bytesRead: length } = await handle.read(buffer, 0, buffer.length, 0));
      } finally {
        await handle.close();
      }
    } catch {
      incompleteBecause ??= `a file could not be read (${file})`;
      continue;
    }
    if (length > limits.maxFileBytes) {
      incompleteBecause ??= `a file is larger than ${limits.maxFileBytes} bytes (${file})`;
      length = limits.maxFileBytes;
    }
    bytes += length;
    if (buffer.subarray(0, Math.min(length, 8000)).includes(0)) continue; // binary
    const text = buffer.toString('utf8', 0, length);
    for (const term of pending) {
      if (containsWord(text, term)) {
        found.add(term);
        pending.delete(term);
      }
    }
  }
  return { found, complete: incompleteBecause === undefined, ...(incompleteBecause ? { incompleteBecause } : {}) };
}

/** `term` with no identifier character either side (`$` counts: JavaScript names carry it). */
export function containsWord(text: string, term: string): boolean {
  for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + term.length] ?? '';
    if (!IDENTIFIER_CHAR.test(before) && !IDENTIFIER_CHAR.test(after)) return true;
  }
  return false;
}

const IDENTIFIER_CHAR = /^[\p{L}\p{N}_$]$/u;
