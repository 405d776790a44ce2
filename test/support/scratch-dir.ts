import { existsSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Room a caller may need: two npm installs of engram's dependencies (≈ 260 MB each) and a clone, with margin. */
const NEEDED_BYTES = 2 * 1024 ** 3;

/**
 * Where a test that writes hundreds of megabytes (an `npm ci` of engram's dependencies) makes
 * its directory: Linux's tmpfs (/dev/shm) when it has the room, else the temporary directory.
 * The files are as real either way; on tmpfs the kernel spends about half the system time on
 * them (an `npm ci` of the runtime, A/B on this machine: 4.6–5.7 s of system CPU against
 * 6.8–9.6 s on ext4) and nothing is written back to disk afterwards. A container's /dev/shm is
 * often 64 MB: then the temporary directory.
 */
export function scratchParent(): string {
  try {
    if (existsSync('/dev/shm')) {
      const fs = statfsSync('/dev/shm');
      if (fs.bavail * fs.bsize >= NEEDED_BYTES) return '/dev/shm';
    }
  } catch {
    // Not readable here: the temporary directory.
  }
  return tmpdir();
}
