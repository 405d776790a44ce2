import { accessSync, constants, statSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * A directory for scratch files in memory (`/dev/shm`, a tmpfs, where Linux has one), else the
 * usual temporary directory. For a test whose many small writes are folds checked for their
 * bytes, not for surviving a power loss: there each durable write's fsync, rename and unlink
 * reach the disk, and on a loaded machine most of the test's time was spent waiting on them. A
 * test of durability itself, or of a disk (full, slow, torn), keeps a real one.
 */
export function memoryTmpdir(): string {
  try {
    if (!statSync('/dev/shm').isDirectory()) return tmpdir();
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}
