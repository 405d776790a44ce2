import * as z from 'zod/mini';
import { ERROR_CAP, ToolFailed } from '../events/hook-events.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { hookMain, type HookSpec } from './run-hook.js';
import { toolInputPointer } from '../capture/tool-input-pointer.js';

const input = z.looseObject({
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.optional(z.unknown()),
  error: z.optional(z.unknown()),
  is_interrupt: z.optional(z.boolean()),
  tool_use_id: z.optional(z.string()),
});

const spec: HookSpec<typeof input> = {
  hook: 'PostToolUseFailure',
  input,
  toEvent: (input) => ({
    definition: ToolFailed,
    data: {
      tool: redactCapped(input.tool_name, 200),
      input: toolInputPointer(input.tool_name, input.tool_input),
      error: redactCapped(errorText(input.error), ERROR_CAP),
      interrupted: input.is_interrupt,
      toolUseId: input.tool_use_id === undefined ? undefined : redactCapped(input.tool_use_id, 200),
    },
    settled: SETTLED,
  }),
};

export const main = hookMain(spec);

const SETTLED = ['tool', 'input', 'error', 'toolUseId'] as const;

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error === undefined || error === null) return '';
  return JSON.stringify(error) ?? '';
}
