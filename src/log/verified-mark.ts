import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod/mini';
import type { EventLog } from './event-log.js';

/**
 * How far the log has been read back whole, kept with the log itself (a log swapped in by
 * `migrate` or `log repair` starts without one), so a worker's start reads only what was
 * appended since instead of the whole history.
 *
 * LevelDB never changes a table file once written: a table that was there when the mark was
 * saved and has another size or mtime now was changed by something else (a disk tool, a bad
 * copy, our own fault-injection tests), and the mark no longer vouches for it. Tables made
 * since (flushes, compactions) hold data LevelDB copied from what was read back whole.
 */
export interface VerifiedMark {
  /** Every seq up to this one was read back whole. */
  seq: number;
  /** The log's table files when it was saved: name → size and mtime. */
  tables: Record<string, { size: number; mtimeMs: number }>;
}

const META_NAME = 'verifiedMark';

const markSchema = z.object({
  seq: z.number(),
  tables: z.record(z.string(), z.object({ size: z.number(), mtimeMs: z.number() })),
});

function tablesOf(dir: string): VerifiedMark['tables'] {
  const tables: VerifiedMark['tables'] = {};
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.ldb') && !name.endsWith('.sst')) continue;
    try {
      const stat = statSync(join(dir, name));
      tables[name] = { size: stat.size, mtimeMs: stat.mtimeMs };
    } catch {
      // compacted away between the listing and the stat
    }
  }
  return tables;
}

/**
 * Where the start check may begin: after the saved mark when it still holds (it is not past the
 * head, and no table it saw was changed since), else 1 (the whole log).
 */
export async function verifyFrom(log: EventLog, dir: string): Promise<number> {
  let raw: string | undefined;
  try {
    raw = await log.getMeta(META_NAME);
  } catch {
    return 1;
  }
  if (raw === undefined) return 1;
  let mark: VerifiedMark;
  try {
    const parsed = markSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return 1;
    mark = parsed.data;
  } catch {
    return 1;
  }
  if (mark.seq > log.head) return 1;
  const now = tablesOf(dir);
  for (const [name, seen] of Object.entries(mark.tables)) {
    const current = now[name];
    if (current && (current.size !== seen.size || current.mtimeMs !== seen.mtimeMs)) return 1;
  }
  return mark.seq + 1;
}

/** Records that every seq up to `seq` was read back whole, with the table files as they are now. */
export async function saveVerifiedMark(log: EventLog, dir: string, seq: number): Promise<void> {
  const mark: VerifiedMark = { seq, tables: tablesOf(dir) };
  await log.setMeta(META_NAME, JSON.stringify(mark));
}
