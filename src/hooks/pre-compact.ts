import * as z from 'zod/mini';
import { CompactionStarted } from '../events/hook-events.js';
import { hookMain, type HookSpec } from './run-hook.js';

const input = z.looseObject({ trigger: z.optional(z.string()) });

const spec: HookSpec<typeof input> = {
  hook: 'PreCompact',
  input,
  toEvent: (input) => ({ definition: CompactionStarted, data: { trigger: (input.trigger ?? 'auto').slice(0, 40) } }),
};

export const main = hookMain(spec);
