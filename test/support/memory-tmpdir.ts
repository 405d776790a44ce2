import { accessSync, constants, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * A directory for scratch files in memory (`/dev/shm`, a tmpfs, where Linux has one with
 * `neededBytes` free and writable), else the usual temporary directory. For a test whose many
 * small writes are folds checked for their bytes, not for surviving a power loss: there each
 * durable write's fsync, rename and unlink reach the disk, and on a loaded machine most of the
 * test's time was spent waiting on them; and for one that writes hundreds of megabytes (an
 * `npm ci` of engram's dependencies), whose system time on tmpfs is about half (A/B here: 4.6–5.7 s
 * against 6.8–9.6 s on ext4). The files are as real either way. A test of durability itself, or
 * of a disk (full, slow, torn), keeps a real one. A container's /dev/shm is often 64 MB: then the
 * temporary directory.
 */
export function memoryTmpdir(neededBytes = 256 * 1024 ** 2): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    const fs = statfsSync('/dev/shm');
    return fs.bavail * fs.bsize >= neededBytes ? '/dev/shm' : tmpdir();
  } catch {
    return tmpdir();
  }
}
