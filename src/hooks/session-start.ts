import * as z from 'zod/mini';
import { BUILD_ID } from '../build-id.js';
import { SessionStarted } from '../events/hook-events.js';
import { runsAsPlugin } from '../launch/plugin-layout.js';
import { runtimeNotice } from '../plugin/runtime-notice.js';
import { hookMain, type HookSpec } from './run-hook.js';
import { sessionSummary } from './session-summary.js';

const input = z.looseObject({ source: z.optional(z.string()), model: z.optional(z.unknown()) });

const spec: HookSpec<typeof input> = {
  hook: 'SessionStart',
  input,
  toEvent: (input) => ({
    definition: SessionStarted,
    data: {
      source: (input.source ?? 'startup').slice(0, 40),
      transcriptPath: input.transcript_path,
      model: modelName(input.model),
    },
  }),
  // Every source, compaction included: after a compaction the summary is gone from the context.
  // The plugin's hooks say first when their worker is still being prepared.
  context: (paths, { session, project }, env) =>
    [runsAsPlugin() ? runtimeNotice(paths, env, BUILD_ID) : '', sessionSummary(paths, session, project, env)].filter(Boolean).join('\n\n'),
};

export const main = hookMain(spec);

// Claude Code has sent the model both as a string and as {id, display_name}.
function modelName(model: unknown): string | undefined {
  if (typeof model === 'string') return model.slice(0, 120);
  if (model && typeof model === 'object' && typeof (model as { id?: unknown }).id === 'string') {
    return (model as { id: string }).id.slice(0, 120);
  }
  return undefined;
}
