import * as z from 'zod/mini';
import { CompactionStarted } from '../events/hook-events.js';
import type { HookHandoff } from './hook-handoff.js';
import { runHook, type HookSpec } from './run-hook.js';

const input = z.looseObject({ trigger: z.optional(z.string()) });

const spec: HookSpec<typeof input> = {
  hook: 'PreCompact',
  input,
  toEvent: (input) => ({ definition: CompactionStarted, data: { trigger: (input.trigger ?? 'auto').slice(0, 40) } }),
};

/**
 * Run by the hook's entry (run-hook-code.ts) once the bundle is loaded. `env` is for a test
 * that runs the built bundle in its own process (test/support/hook-here.ts).
 */
export function main(handoff?: HookHandoff, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return runHook(spec, env, handoff);
}
