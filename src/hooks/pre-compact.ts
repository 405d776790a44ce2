import * as z from 'zod/mini';
import { CompactionStarted } from '../events/hook-events.js';
import { runHook } from './run-hook.js';

void runHook({
  hook: 'PreCompact',
  input: z.looseObject({ trigger: z.optional(z.string()) }),
  toEvent: (input) => ({ definition: CompactionStarted, data: { trigger: (input.trigger ?? 'auto').slice(0, 40) } }),
});
