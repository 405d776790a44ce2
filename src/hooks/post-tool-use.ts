import * as z from 'zod/mini';
import { ToolCalled } from '../events/hook-events.js';
import { hookMain, type HookSpec } from './run-hook.js';
import { toolInputPointer } from '../capture/tool-input-pointer.js';

const input = z.looseObject({
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.optional(z.unknown()),
  tool_response: z.optional(z.unknown()),
  tool_use_id: z.optional(z.string()),
});

const spec: HookSpec<typeof input> = {
  hook: 'PostToolUse',
  input,
  toEvent: (input) => ({
    definition: ToolCalled,
    data: {
      tool: input.tool_name.slice(0, 200),
      input: toolInputPointer(input.tool_name, input.tool_input),
      ok: !reportsError(input.tool_response),
      toolUseId: input.tool_use_id?.slice(0, 200),
    },
    settled: SETTLED,
  }),
};

export const main = hookMain(spec);

const SETTLED = ['input'] as const;

// PostToolUse fires for calls that returned; some still report failure in their response.
function reportsError(response: unknown): boolean {
  if (!response || typeof response !== 'object') return false;
  const r = response as Record<string, unknown>;
  return r.is_error === true || r.success === false || r.interrupted === true ||
    (typeof r.error === 'string' && r.error.length > 0);
}
