import { closeSync, fchmodSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { syncDir } from '../atomic-write.js';

/** What is at a path engram writes, read once, before it decides anything. */
export interface OwnedFile {
  /** Where the bytes are: the path itself, or the end of the symlink chain it is (a MEMORY.md kept in a dotfiles repository stays a link). */
  target: string;
  bytes: Buffer | undefined;
  /** Permission bits of the file there, kept when engram writes it. */
  mode: number | undefined;
}

export function readOwnedFile(path: string): OwnedFile {
  const target = resolveLink(path);
  try {
    const bytes = readFileSync(target);
    return { target, bytes, mode: statSync(target).mode & 0o7777 };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { target, bytes: undefined, mode: undefined };
    throw err;
  }
}

function resolveLink(path: string): string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
  } catch {
    return path;
  }
  try {
    return realpathSync(path);
  } catch {
    // A link to a file not there yet: the file goes where it points.
    return resolve(dirname(path), readlinkSync(path));
  }
}

/** Names of engram's own temporary files: no tool lists them as memories (not `*.md`), and a start clears them. */
const TEMP = /^\.engram-\d+-[a-z0-9]+(?:-([0-9a-f]+))?\.(tmp|old)$/;

const LEGACY_TEMP = /^\..+\.\d+-[a-z0-9]{1,8}\.tmp$/;

/** A kept old file names (in hex) the file it was, so that a start after a crash knows where it belongs. */
function tempName(dir: string, suffix: 'tmp' | 'old', of?: string): string {
  const tag = of === undefined ? '' : `-${Buffer.from(basename(of)).toString('hex')}`;
  return join(dir, `.engram-${process.pid}-${Math.random().toString(36).slice(2, 10)}${tag}.${suffix}`);
}

export type WriteOutcome =
  /** engram's bytes are there. */
  | 'written'
  /** Someone wrote the file while engram was replacing it: their bytes were put back, engram's were not kept. */
  | 'raced';

/**
 * Replaces the file at `file.target` with `content`, safe against a person saving it at the same
 * instant. A rename replaces whatever is there, so a save that lands between engram's look and
 * its rename would be lost; comparing again before the rename does not close that window (the
 * delay can sit on the rename itself). So a hard link to the file as it was is kept across the
 * rename: afterwards, if what it holds is not what engram read, someone saved in between, and
 * their bytes go back in place ('raced'; the caller leaves the file to them and the reconciler
 * records the edit). The file's mode is kept; the temporary file is synced before the rename
 * and removed when anything fails. `syncDir: false` leaves syncing the directory to a caller that
 * writes many files there and syncs it once, before it records them as done.
 */
export function replaceOwnedFile(file: OwnedFile, content: string | Uint8Array, options: { durable?: boolean; syncDir?: boolean } = {}): WriteOutcome {
  const durable = options.durable ?? true;
  const dir = dirname(file.target);
  const tmp = tempName(dir, 'tmp');
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', file.mode ?? 0o666);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    fd = openSync(tmp, 'wx', file.mode ?? 0o666);
  }
  let old: string | undefined;
  try {
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      // open() filters the mode through the umask; an existing file's bits are kept exactly.
      if (file.mode !== undefined) fchmodSync(fd, file.mode);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (file.bytes !== undefined) old = keepOld(file.target, dir);
    renameSync(tmp, file.target);
  } catch (err) {
    rmSync(tmp, { force: true });
    if (old !== undefined) rmSync(old, { force: true });
    throw err;
  }
  if (durable && (options.syncDir ?? true)) syncDir(dir);
  if (old === undefined) return 'written';
  return settleOld(old, file);
}

/**
 * Removes engram's file at `file.target` (a memory moved to `_archive/`), with the same care: the
 * file is moved aside first, and put back when what was moved is not what engram read.
 */
export function removeOwnedFile(file: OwnedFile): WriteOutcome {
  if (file.bytes === undefined) return 'written';
  const old = tempName(dirname(file.target), 'old', file.target);
  try {
    renameSync(file.target, old);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'written';
    throw err;
  }
  const moved = readFileSync(old);
  if (moved.equals(file.bytes)) {
    rmSync(old, { force: true });
    return 'written';
  }
  putBack(old, file.target);
  return 'raced';
}

function keepOld(target: string, dir: string): string | undefined {
  const old = tempName(dir, 'old', target);
  try {
    linkSync(target, old);
    return old;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Gone since it was read: nothing to keep. A file system without hard links: the window stays open there.
    if (code === 'ENOENT' || code === 'EPERM' || code === 'EXDEV' || code === 'ENOTSUP' || code === 'EMLINK') return undefined;
    throw err;
  }
}

function settleOld(old: string, file: OwnedFile): WriteOutcome {
  let kept: Buffer;
  try {
    kept = readFileSync(old);
  } catch {
    return 'written';
  }
  if (file.bytes !== undefined && kept.equals(file.bytes)) {
    rmSync(old, { force: true });
    return 'written';
  }
  putBack(old, file.target);
  return 'raced';
}

/** The person's bytes back where they were, over engram's. */
function putBack(old: string, target: string): void {
  renameSync(old, target);
  syncDir(dirname(target));
}

export interface Leftover {
  path: string;
  kind: 'tmp' | 'old';
  /** For an old file: the file it was (absolute). */
  of?: string;
}

/**
 * engram's temporary files a crash left in a directory. Only one engine writes a home's files at
 * a time (it holds the state store), so any found when it starts are a dead process's.
 */
export function leftoversIn(dir: string): Leftover[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    // What the atomic writer of earlier releases left: `.<file>.<pid>-<random>.tmp`.
    if (LEGACY_TEMP.test(name)) return [{ path: join(dir, name), kind: 'tmp' as const }];
    const match = TEMP.exec(name);
    if (!match) return [];
    const of = match[1] === undefined ? undefined : join(dir, Buffer.from(match[1], 'hex').toString());
    return [{ path: join(dir, name), kind: match[2] as 'tmp' | 'old', ...(of === undefined ? {} : { of }) }];
  });
}

/** Whether a name is one of engram's temporary files (never a memory). */
export function isOwnedTempName(name: string): boolean {
  return TEMP.test(basename(name));
}
