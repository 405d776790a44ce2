import { readFileSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { contentHash } from '../content-hash.js';
import { splitIndex } from './memory-index-lines.js';
import { leftoversIn } from './owned-file.js';
import type { OwnershipLedger } from './ownership-ledger.js';
import { whoseFile } from './whose-file.js';

/**
 * Clears what a crash left of engram's writes in a directory (DESIGN.md: no temporary file
 * survives a crash in Claude Code's directories). A temporary file is engram's and goes. A kept
 * old file (a hard link to what was there before a write) goes when its bytes were engram's or
 * are still in place; when they were someone else's and engram's bytes replaced them, they are
 * put back. Returns what it could not settle, one line each (left where it is).
 */
export async function clearLeftovers(dir: string, ledger: OwnershipLedger, indexWriters: readonly string[] = []): Promise<string[]> {
  const notes: string[] = [];
  for (const leftover of leftoversIn(dir)) {
    if (leftover.kind === 'tmp' || leftover.of === undefined) {
      rmSync(leftover.path, { force: true });
      continue;
    }
    const [record] = await ledger.get([leftover.of]);
    let kept: Buffer;
    try {
      kept = readFileSync(leftover.path);
    } catch {
      continue;
    }
    const current = readIfThere(leftover.of);
    const keptHash = contentHash(kept);
    if ((current !== undefined && current.equals(kept)) || whoseFile(keptHash, record) === 'engram' || (await indexLinesKept(leftover.of, kept, current, ledger, indexWriters))) {
      rmSync(leftover.path, { force: true });
    } else if (current === undefined || whoseFile(contentHash(current), record) === 'engram') {
      renameSync(leftover.path, leftover.of);
    } else {
      notes.push(`${leftover.path}: bytes someone wrote to ${leftover.of} while engram wrote it, left for them to compare`);
    }
  }
  return notes;
}

/**
 * MEMORY.md is kept per writer (`<path>#<writer>`, its lines), never as one hash: an old copy of
 * it is engram's to drop when each of its lines is still in the file or is a line engram's
 * writers own, so nothing a person wrote there would be lost with it.
 */
async function indexLinesKept(of: string, kept: Buffer, current: Buffer | undefined, ledger: OwnershipLedger, writers: readonly string[]): Promise<boolean> {
  if (basename(of) !== 'MEMORY.md' || writers.length === 0) return false;
  const there = new Set(splitIndex(current).lines);
  const owned = new Set((await ledger.get(writers.map((writer) => `${of}#${writer}`))).flatMap((record) => record?.lines ?? []));
  return splitIndex(kept).lines.every((line) => line === '' || there.has(line) || owned.has(line));
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
