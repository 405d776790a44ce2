import * as z from 'zod/mini';
import { PROMPT_CAP, PromptSubmitted } from '../events/hook-events.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { runHook } from './run-hook.js';

void runHook({
  hook: 'UserPromptSubmit',
  input: z.looseObject({ prompt: z.string() }),
  toEvent: ({ prompt }) => ({
    definition: PromptSubmitted,
    data: { prompt: redactCapped(prompt, PROMPT_CAP), chars: prompt.length, truncated: prompt.length > PROMPT_CAP },
  }),
});
