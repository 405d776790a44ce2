import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

const seq = z.int().check(z.nonnegative());

/**
 * Events about the log itself. The log is the only source of truth, so a loss of some of it is
 * recorded in it too: whoever reads the log later sees that those seqs are gone, and why.
 */
export const LogRepaired = defineEvent({
  type: 'LogRepaired',
  schemaVersion: 1,
  summary:
    'Part of the log was found lost or unreadable (a power cut took its tail, a damaged block) and engram went on without it: seqs lostFrom..lostTo hold no event and are never handed out again.',
  data: () => z.object({
    /** The first and last seq lost (inclusive); lostFrom > lostTo when nothing was lost. */
    lostFrom: seq,
    lostTo: seq,
    /** Events kept: the log's events from before the loss (and, after a repair, after it). */
    kept: seq,
    /** `tail-lost` (a checkpoint was ahead of the log) or `repair` (`engram log repair`). */
    cause: z.enum(['tail-lost', 'repair']),
    reason: z.string().check(z.maxLength(2000)),
    /** After a repair: where the damaged log was kept. */
    oldLog: z.optional(z.string().check(z.maxLength(4096))),
  }),
});

export const logEvents = [LogRepaired] as const;
