import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

/** Characters of the conversation kept from its start. */
export const EXCERPT_HEAD = 4_000;
/** Characters of the conversation kept from its end, where the outcome is. */
export const EXCERPT_TAIL = 26_000;
// Room for the marker between head and tail, and for markers a last redaction pass may lengthen.
const EXCERPT_MAX = EXCERPT_HEAD + EXCERPT_TAIL + 2_000;
/** Most notes kept on one capture; the rest are counted in the last one. */
export const NOTES_CAP = 20;

const count = z.int().check(z.nonnegative());

export const TranscriptCaptured = defineEvent({
  type: 'TranscriptCaptured',
  schemaVersion: 1,
  summary:
    'The worker read a session\'s transcript: user and assistant text only, redacted, head and tail kept, with what it skipped and why.',
  data: () => z.object({
    transcriptPath: z.string().check(z.maxLength(4096)),
    /**
     * The conversation as `[user]` / `[assistant]` sections, a compaction's summary marked as
     * such; the first EXCERPT_HEAD and last EXCERPT_TAIL characters, a marker between them.
     */
    excerpt: z.string().check(z.maxLength(EXCERPT_MAX)),
    /** Whether the middle was cut out. */
    cut: z.boolean(),
    /** No transcript could be opened at the path: the excerpt is at most the Stop hook's answer. */
    missing: z.boolean(),
    /**
     * The transcript's last assistant text was missing or older than the Stop hook's
     * `last_assistant_message` (Claude Code writes the file after the hook runs), so the excerpt
     * ends with the hook's copy.
     */
    lagging: z.boolean(),
    counts: z.object({
      /** Lines read from the main transcript, kept or not. */
      lines: count,
      /** User lines with text on the main chain (tool results alone are not turns). */
      userTurns: count,
      /** Assistant lines with text on the main chain. */
      assistantTurns: count,
      /** Characters of the conversation before the cut and before redaction. */
      chars: count,
      compactions: count,
      /** Text lines of subagents written inline (`isSidechain`): counted, left out of the excerpt. */
      sidechainTurns: count,
      /** `<session>/subagents/agent-*.jsonl` files read, and their text lines, left out likewise. */
      subagentFiles: count,
      subagentTurns: count,
      /** Lines that could not be read: corrupt, not a transcript line, too long, cut short. */
      skippedLines: count,
    }),
    /** Why lines were skipped and what else went wrong, one short line each (redacted). */
    notes: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(NOTES_CAP)),
  }),
});

export const transcriptEvents = [TranscriptCaptured] as const;
