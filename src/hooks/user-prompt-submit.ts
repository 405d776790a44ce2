import * as z from 'zod/mini';
import { detectCorrection } from '../capture/correction-detector.js';
import { correctionNotice } from '../capture/correction-notice.js';
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
  // On the prompt as stored, not as typed: the memories projector runs the same detector on the
  // same text, so what this line announces is what the memory will say.
  context: (data) => {
    const correction = detectCorrection((data as { prompt: string }).prompt);
    return correction ? correctionNotice(correction) : undefined;
  },
});
