import * as z from 'zod/mini';
import { TurnStopped } from '../events/hook-events.js';
import { runHook } from './run-hook.js';

void runHook({
  hook: 'Stop',
  input: z.looseObject({
    stop_hook_active: z.optional(z.boolean()),
    last_assistant_message: z.optional(z.unknown()),
  }),
  toEvent: (input) => ({
    definition: TurnStopped,
    data: {
      stopHookActive: input.stop_hook_active ?? false,
      // The answer is in the transcript; the log keeps only its size.
      answerChars: typeof input.last_assistant_message === 'string' ? input.last_assistant_message.length : 0,
    },
  }),
});
