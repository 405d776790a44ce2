import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const hookNames = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'PreCompact', 'Stop', 'SubagentStop', 'SessionEnd'] as const;

const lineSchema = z.object({
  at: z.iso.datetime(),
  hook: z.enum(hookNames),
  payload: z.record(z.string(), z.unknown()),
});

export type FixtureLine = z.infer<typeof lineSchema>;

export interface FixtureSession {
  file: string;
  lines: FixtureLine[];
}

/** The hook file each Claude Code hook event runs. */
export const hookFile: Record<FixtureLine['hook'], string> = {
  SessionStart: 'session-start.cjs',
  UserPromptSubmit: 'user-prompt-submit.cjs',
  PostToolUse: 'post-tool-use.cjs',
  PostToolUseFailure: 'post-tool-use-failure.cjs',
  PreCompact: 'pre-compact.cjs',
  Stop: 'stop.cjs',
  SubagentStop: 'subagent-stop.cjs',
  SessionEnd: 'session-end.cjs',
};

/** fixtures/sessions/*.jsonl: what Claude Code sent each hook, in order, one session a file. */
export function loadFixtureSessions(dir: string): FixtureSession[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((file) => ({
      file,
      lines: readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line, i) => {
          const parsed = lineSchema.safeParse(JSON.parse(line));
          if (!parsed.success) throw new Error(`${file}:${i + 1}: ${parsed.error.message}`);
          return parsed.data;
        }),
    }));
}
