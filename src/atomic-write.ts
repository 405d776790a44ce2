import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /**
   * Sync the file's bytes before the rename and the directory entry after it, so that a power
   * loss or a kernel crash leaves the old content or the new, never an empty or torn file.
   * Default true; only a writer whose file is worthless when torn (and is checked on read)
   * may turn it off to save the milliseconds.
   */
  durable?: boolean;
  /**
   * Permission bits of the file, set exactly (not filtered by the umask), to keep an existing
   * file's. Default: 0o666 less the umask, what any editor gives a new file.
   */
  mode?: number;
  /** Create the parent directory when it is missing. Default true. */
  makeDir?: boolean;
  /**
   * Where the temporary file is written, on the same file system as `path` (the rename must not
   * cross one). Default: beside `path`. A writer that clears this directory when it starts leaves
   * no temporary file behind a kill -9, wherever it was writing.
   */
  tmpDir?: string;
}

/**
 * The one way engram replaces a file that a torn write would corrupt (memory files, views,
 * settings.json, the pid file): write a temp file beside it, sync it, rename it over the
 * target, sync the directory. Readers see the old bytes or the new, never a mix; the temp
 * file is removed when anything fails. A symlink at `path` is replaced, not followed: resolve
 * it first when its target is what should change.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  const tmp = join(options.tmpDir ?? dir, `.${basename(path)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', options.mode ?? 0o666);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || options.makeDir === false) throw err;
    mkdirSync(dirname(tmp), { recursive: true });
    fd = openSync(tmp, 'wx', options.mode ?? 0o666);
  }
  if (options.tmpDir !== undefined) mkdirSync(dir, { recursive: true });
  try {
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      if (options.mode !== undefined) {
        // open() filters the mode through the umask; an existing file's bits are kept exactly.
        fchmodSync(fd, options.mode);
      }
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  if (durable) syncDir(dir);
}

/** Makes a rename or a new file in `dir` survive a crash. Best effort where a directory cannot be opened. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms and file systems refuse to open or sync a directory; the rename stands.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
