import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { contentHash } from '../content-hash.js';
import { EngramError } from '../errors.js';
import { classifyMemoryIndex, type IndexLine, type IndexLayout } from './classify-memory-index.js';
import { parseMemoryFile, type ParsedMemoryFile } from './memory-file.js';

/**
 * The largest memory file read, 8 MiB. Claude Code's memories are a few KB, and a 2 MB memory
 * must still be read. The cap bounds what one stray file (a log, a dump) can cost. A larger file
 * is reported as too large, never read, never written.
 */
export const MEMORY_FILE_MAX_BYTES = 8 * 1024 * 1024;

const ARCHIVE_DIR = '_archive';
/** Where a memory's graph sidecar sits: `_graph/<file>.json` (see materialize-memories.ts). */
const GRAPH_DIR = '_graph';
/** A sidecar names a few dozen entities; anything much larger is not one. */
const GRAPH_SIDECAR_MAX_BYTES = 256 * 1024;
const INDEX_FILE = 'MEMORY.md';
// Not following a symlink that appears between the check and the open; not blocking on a FIFO.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface ReadMemoryDirOptions {
  /** Default MEMORY_FILE_MAX_BYTES. */
  maxBytes?: number;
}

/** A file that was read. */
export interface MemoryDirFile {
  /** Relative to the directory, `/`-separated: `note.md`, `_archive/old.md`. */
  fileName: string;
  /** The directory as given, joined with fileName. */
  path: string;
  size: number;
  mtimeMs: number;
  /** What the file sink records for a file it writes (sha256, base64url, 22 characters), so the two compare. */
  hash: string;
}

export interface MemoryFileEntry extends MemoryDirFile {
  parsed: ParsedMemoryFile;
}

export interface MemoryIndexFile extends MemoryDirFile {
  text: string;
  layout: IndexLayout;
  /** Each line classified. A link to a path inside the directory says whether that path `exists`. */
  lines: Array<IndexLine & { exists?: boolean }>;
}

/**
 * binary: NUL bytes. not-utf8: bytes that are not UTF-8. too-large: over the cap. symlink-outside:
 * a symlink that resolves outside the directory (never followed). broken-symlink: resolves to
 * nothing. not-a-file: a directory, FIFO, socket or device named `*.md`. bad-name: a name that is
 * not UTF-8. unreadable: the system refused (permissions, I/O); `detail` has the code.
 */
export type UnreadableReason = 'binary' | 'not-utf8' | 'too-large' | 'symlink-outside' | 'broken-symlink' | 'not-a-file' | 'bad-name' | 'unreadable';

export interface UnreadableFile {
  fileName: string;
  path: string;
  reason: UnreadableReason;
  detail: string;
}

/** An entry that is not a memory: a subdirectory other than `_archive`, a file that is not `*.md`, a hidden file. */
export interface SkippedEntry {
  fileName: string;
  kind: 'directory' | 'not-markdown' | 'hidden' | 'symlink' | 'other';
}

export interface MemoryDir {
  /** The directory as given, made absolute. */
  dir: string;
  /** The same with symlinks resolved: what "inside the directory" is checked against. */
  realDir: string;
  /** Every `*.md` except MEMORY.md, by name. */
  memories: MemoryFileEntry[];
  /** `_archive/*.md`, by name. */
  archived: MemoryFileEntry[];
  /** MEMORY.md, when there is one and it could be read. */
  index?: MemoryIndexFile;
  /** `_graph/*.json`, the memories' graph sidecars, by name (`_graph/note.md.json`), as text: the reader checks them. */
  graphs: Array<MemoryDirFile & { text: string }>;
  unreadable: UnreadableFile[];
  skipped: SkippedEntry[];
}

/**
 * Reads one memory directory: what `engram import` and the reconciler see. Never writes. Never
 * follows a symlink out of the directory. Never throws for one file: a file it cannot read is
 * listed in `unreadable` with the reason. Throws MEMORY_DIR_UNREADABLE only when the directory
 * itself cannot be read.
 */
export async function readMemoryDir(dir: string, options: ReadMemoryDirOptions = {}): Promise<MemoryDir> {
  const maxBytes = options.maxBytes ?? MEMORY_FILE_MAX_BYTES;
  const given = resolve(dir);
  let realDir: string;
  try {
    realDir = await realpath(given);
    if (!(await lstat(realDir)).isDirectory()) throw Object.assign(new Error(`${given} is not a directory`), { code: 'ENOTDIR' });
  } catch (err) {
    throw new EngramError('MEMORY_DIR_UNREADABLE', `cannot read memory directory ${given}: ${(err as Error).message}`, { cause: err });
  }
  const result: MemoryDir = { dir: given, realDir, memories: [], archived: [], graphs: [], unreadable: [], skipped: [] };
  const reader = { given, realDir, maxBytes, result };

  let entries: Awaited<ReturnType<typeof listDir>>;
  try {
    entries = await listDir(realDir);
  } catch (err) {
    throw new EngramError('MEMORY_DIR_UNREADABLE', `cannot list memory directory ${given}: ${(err as Error).message}`, { cause: err });
  }
  for (const entry of entries) {
    if (entry.name === undefined) {
      if (entry.lossy.endsWith('.md')) result.unreadable.push(unreadable(given, entry.lossy, 'bad-name', 'the file name is not UTF-8'));
      else result.skipped.push({ fileName: entry.lossy, kind: 'other' });
      continue;
    }
    const name = entry.name;
    if (name === ARCHIVE_DIR) {
      await readArchive(reader);
      continue;
    }
    if (name === GRAPH_DIR) {
      await readGraphs(reader);
      continue;
    }
    if (name.startsWith('.')) {
      result.skipped.push({ fileName: name, kind: 'hidden' });
      continue;
    }
    if (!name.endsWith('.md')) {
      result.skipped.push({ fileName: name, kind: await kindOf(join(realDir, name)) });
      continue;
    }
    const read = await readOne(reader, name);
    if ('reason' in read) result.unreadable.push(read);
    else if (name === INDEX_FILE) result.index = await indexOf(read, reader);
    else result.memories.push({ ...facts(read), parsed: parseMemoryFile(read.text, name) });
  }
  return result;
}

interface Reader {
  given: string;
  realDir: string;
  maxBytes: number;
  result: MemoryDir;
}

interface ReadFile extends MemoryDirFile {
  text: string;
}

async function readArchive(reader: Reader): Promise<void> {
  const { given, realDir, result } = reader;
  const inside = await containedDir(realDir, join(realDir, ARCHIVE_DIR));
  if (typeof inside !== 'string') {
    if (inside.reason === 'not-a-file') result.skipped.push({ fileName: ARCHIVE_DIR, kind: 'other' });
    else result.unreadable.push(unreadable(given, ARCHIVE_DIR, inside.reason, inside.detail));
    return;
  }
  let entries: Awaited<ReturnType<typeof listDir>>;
  try {
    entries = await listDir(inside);
  } catch (err) {
    result.unreadable.push(unreadable(given, ARCHIVE_DIR, 'unreadable', (err as Error).message));
    return;
  }
  for (const entry of entries) {
    const fileName = `${ARCHIVE_DIR}/${entry.name ?? entry.lossy}`;
    if (entry.name === undefined) {
      if (entry.lossy.endsWith('.md')) result.unreadable.push(unreadable(given, fileName, 'bad-name', 'the file name is not UTF-8'));
      else result.skipped.push({ fileName, kind: 'other' });
    } else if (entry.name.startsWith('.')) {
      result.skipped.push({ fileName, kind: 'hidden' });
    } else if (!entry.name.endsWith('.md')) {
      result.skipped.push({ fileName, kind: await kindOf(join(inside, entry.name)) });
    } else {
      const read = await readOne(reader, fileName, inside);
      if ('reason' in read) result.unreadable.push(read);
      else result.archived.push({ ...facts(read), parsed: parseMemoryFile(read.text, entry.name) });
    }
  }
}

/**
 * `_graph/*.json`: read as `_archive/` is (no symlink out, never a FIFO), capped lower, and never
 * reported when absent or odd: a sidecar is an extra, its memory imports without it.
 */
async function readGraphs(reader: Reader): Promise<void> {
  const { realDir, result } = reader;
  const inside = await containedDir(realDir, join(realDir, GRAPH_DIR));
  if (typeof inside !== 'string') {
    result.skipped.push({ fileName: GRAPH_DIR, kind: 'other' });
    return;
  }
  let entries: Awaited<ReturnType<typeof listDir>>;
  try {
    entries = await listDir(inside);
  } catch {
    result.skipped.push({ fileName: GRAPH_DIR, kind: 'other' });
    return;
  }
  for (const entry of entries) {
    const fileName = `${GRAPH_DIR}/${entry.name ?? entry.lossy}`;
    if (entry.name === undefined || entry.name.startsWith('.') || !entry.name.endsWith('.json')) {
      result.skipped.push({ fileName, kind: entry.name?.startsWith('.') ? 'hidden' : 'other' });
      continue;
    }
    const read = await readOne({ ...reader, maxBytes: Math.min(reader.maxBytes, GRAPH_SIDECAR_MAX_BYTES) }, fileName, inside);
    if ('reason' in read) result.unreadable.push(read);
    else result.graphs.push(read);
  }
}

/** The directory's entries by name (code-unit order, so the result never depends on the file system's order). */
async function listDir(realDir: string): Promise<Array<{ name?: string; lossy: string }>> {
  const names = await readdir(realDir, { encoding: 'buffer' });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return names
    .map((raw) => {
      const lossy = raw.toString('utf8');
      try {
        return { name: decoder.decode(raw), lossy };
      } catch {
        return { lossy };
      }
    })
    .sort((a, b) => (a.lossy < b.lossy ? -1 : a.lossy > b.lossy ? 1 : 0));
}

/**
 * Reads one file at `fileName` (relative to the memory directory; `base` is the real directory
 * holding it). A symlink is followed only when its target lies inside the memory directory.
 */
async function readOne(reader: Reader, fileName: string, base = reader.realDir): Promise<ReadFile | UnreadableFile> {
  const { given, realDir, maxBytes } = reader;
  const full = join(base, fileName.split('/').at(-1)!);
  const fail = (reason: UnreadableReason, detail: string) => unreadable(given, fileName, reason, detail);
  try {
    let target = full;
    const link = await lstat(full);
    if (link.isSymbolicLink()) {
      const resolved = await resolveInside(realDir, full);
      if ('reason' in resolved) return fail(resolved.reason, resolved.detail);
      target = resolved.path;
    } else if (!link.isFile()) {
      return fail('not-a-file', describeKind(link));
    }
    const handle = await open(target, OPEN_FLAGS).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ELOOP') return fail('symlink-outside', 'became a symlink while being read');
      throw err;
    });
    if ('reason' in handle) return handle;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return fail('not-a-file', describeKind(stats));
      if (stats.size > maxBytes) return fail('too-large', `${stats.size} bytes, over the ${maxBytes}-byte cap`);
      const bytes = await readCapped(handle, maxBytes, stats.size);
      if (bytes === undefined) return fail('too-large', `grew past the ${maxBytes}-byte cap while being read`);
      if (bytes.includes(0)) return fail('binary', 'contains NUL bytes');
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        return fail('not-utf8', 'bytes that are not UTF-8');
      }
      return {
        fileName,
        path: join(given, ...fileName.split('/')),
        size: bytes.length,
        mtimeMs: stats.mtimeMs,
        hash: contentHash(bytes),
        text,
      };
    } finally {
      await handle.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail('unreadable', code ? `${code}: ${(err as Error).message}` : (err as Error).message);
  }
}

/**
 * The file's bytes, or undefined past `maxBytes`. The first read asks for the size it was stat'ed
 * at and a byte more (a file that did not change is whole in one read, its end found by a second),
 * not a megabyte: a directory of small files was a zero-filled megabyte twice per file.
 */
async function readCapped(handle: Awaited<ReturnType<typeof open>>, maxBytes: number, statSize: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = total === 0 ? statSize + 1 : 1 << 16;
    // Unzeroed: only the bytes read are kept (subarray below).
    const chunk = Buffer.allocUnsafe(Math.min(want, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
  }
}

async function resolveInside(realDir: string, path: string): Promise<{ path: string } | { reason: UnreadableReason; detail: string }> {
  let target: string;
  try {
    target = await realpath(path);
  } catch (err) {
    return { reason: 'broken-symlink', detail: `points to nothing (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (!isInside(realDir, target)) return { reason: 'symlink-outside', detail: `points outside the directory, to ${target}` };
  return { path: target };
}

/** `_archive` as a real directory inside the memory directory, or why not. */
async function containedDir(realDir: string, path: string): Promise<string | { reason: UnreadableReason; detail: string }> {
  try {
    const link = await lstat(path);
    let target = path;
    if (link.isSymbolicLink()) {
      const resolved = await resolveInside(realDir, path);
      if ('reason' in resolved) return resolved;
      target = resolved.path;
    }
    return (await lstat(target)).isDirectory() ? target : { reason: 'not-a-file', detail: 'not a directory' };
  } catch (err) {
    return { reason: 'unreadable', detail: (err as Error).message };
  }
}

function isInside(realDir: string, target: string): boolean {
  const rel = relative(realDir, target);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}

async function kindOf(path: string): Promise<SkippedEntry['kind']> {
  try {
    const stats = await lstat(path);
    return stats.isDirectory() ? 'directory' : stats.isSymbolicLink() ? 'symlink' : stats.isFile() ? 'not-markdown' : 'other';
  } catch {
    return 'other';
  }
}

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

async function indexOf(read: ReadFile, reader: Reader): Promise<MemoryIndexFile> {
  const { layout, lines } = classifyMemoryIndex(read.text);
  const withExists = await Promise.all(
    lines.map(async (line) => {
      if (line.kind !== 'link' || line.target === undefined) return line;
      const normal = posix.normalize(line.target);
      if (isAbsolute(normal) || normal === '..' || normal.startsWith('../')) return line;
      const exists = await lstat(join(reader.realDir, ...normal.split('/'))).then(
        () => true,
        () => false,
      );
      return { ...line, exists };
    }),
  );
  return { ...facts(read), text: read.text, layout, lines: withExists };
}

function facts(read: ReadFile): MemoryDirFile {
  const { fileName, path, size, mtimeMs, hash } = read;
  return { fileName, path, size, mtimeMs, hash };
}

function unreadable(given: string, fileName: string, reason: UnreadableReason, detail: string): UnreadableFile {
  return { fileName, path: join(given, ...fileName.split('/')), reason, detail };
}
