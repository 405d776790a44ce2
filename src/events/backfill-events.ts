import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

const count = z.int().check(z.nonnegative());
const counts = z.record(z.string().check(z.maxLength(60)), count);

/** Where Claude Code keeps what `engram backfill` reads. */
export const BACKFILL_SOURCES = ['transcript', 'subagent', 'history'] as const;

export const RecordBackfilled = defineEvent({
  type: 'RecordBackfilled',
  schemaVersion: 1,
  summary:
    'engram backfill read one of Claude Code\'s own records (a transcript, a subagent\'s transcript or history.jsonl) to its end: the hook events it derived carry ids starting `bf:`.',
  data: () => z.object({
    source: z.enum(BACKFILL_SOURCES),
    /** The file, relative to CLAUDE_CONFIG_DIR. */
    path: z.string().check(z.maxLength(4096)),
    /** Its size and modification time when read: a file that changed since is read again. */
    bytes: count,
    mtimeMs: z.number(),
    lines: count,
    /** Hook events derived from it (appended now or already in the log). */
    events: count,
    /** Lines passed over, by why (`not JSON`, `cut short`, `summary`, `captured live`…). */
    skipped: counts,
    /** Secrets taken out of what was kept, by kind (the redaction marker's kind), never values. */
    redacted: counts,
  }),
});

export const backfillEvents = [RecordBackfilled] as const;
