import * as z from 'zod/mini';
import { defineUpcaster } from '../src/events/define-upcaster.js';
import { PROMPT_CAP } from '../src/events/hook-events.js';
import { capText } from '../src/redaction/redact-capped.js';

/**
 * PromptSubmitted v1 kept the whole prompt and nothing else. v2 caps the stored prompt at
 * PROMPT_CAP (a 5 MB paste must not bloat the log) and so records the typed length and whether
 * it was cut. A v1 prompt was never cut; its length is what it holds. The cut never falls inside
 * a marker a log migration put there.
 */
export const promptSubmittedChars = defineUpcaster({
  id: '0001-prompt-submitted-chars',
  type: 'PromptSubmitted',
  fromSchemaVersion: 1,
  from: z.object({ prompt: z.string() }),
  upcast: ({ prompt }) => ({
    prompt: capText(prompt, PROMPT_CAP),
    chars: prompt.length,
    truncated: prompt.length > PROMPT_CAP,
  }),
});
