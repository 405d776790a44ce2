import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

/** Most memories one prompt brings in: the pipeline's top 3, with room for a wider setting. */
export const MAX_RECALLED_PER_PROMPT = 10;
/** Most candidates a recall records as left out by the cut: the best of them. */
export const MAX_LEFT_OUT = 5;

// A function, as each event's `data` is: built only when the event is read or written.
const signals = () => z.array(z.string().check(z.maxLength(300))).check(z.maxLength(10));

export const MemoriesRecalled = defineEvent({
  type: 'MemoriesRecalled',
  schemaVersion: 1,
  summary: 'Recall put these memories in the context of a session, for one prompt; they are not put there again in that session.',
  data: () => z.object({
    memoryIds: z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.minLength(1), z.maxLength(MAX_RECALLED_PER_PROMPT)),
    /** FNV-1a of the prompt as stored, so two recalls can be told apart without keeping the prompt twice. */
    promptHash: z.string().check(z.maxLength(40)),
    /** `worker` (the warm pipeline) or `fallback` (BM25 over the index files, in the hook). */
    via: z.enum(['worker', 'fallback']),
    /**
     * Why each was recalled: the signals that fired for `memoryIds[i]` (`bm25`, `graph:postgres`).
     * Absent from recalls recorded before the viewer; optional, so schemaVersion 1 reads both.
     */
    signals: z.optional(z.array(signals()).check(z.maxLength(MAX_RECALLED_PER_PROMPT))),
    /** The best candidates the cut did not recall, and why. Absent from recalls recorded before the viewer. */
    leftOut: z.optional(
      z.array(
        z.object({
          id: z.string().check(z.minLength(1), z.maxLength(200)),
          score: z.number(),
          signals: signals(),
          why: z.enum(['below-cut', 'past-limit', 'already-recalled']),
        }),
      ).check(z.maxLength(MAX_LEFT_OUT)),
    ),
  }),
});

export const recallEvents = [MemoriesRecalled] as const;
