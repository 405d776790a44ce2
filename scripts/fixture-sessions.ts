import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { hookTable, type HookEvent } from '../src/cli/hook-table.js';


const lineSchema = z.object({
  at: z.iso.datetime(),
  hook: z.enum(hookTable.map((spec) => spec.event) as [HookEvent, ...HookEvent[]]),
  payload: z.record(z.string(), z.unknown()),
});

export type FixtureLine = z.infer<typeof lineSchema>;

export interface FixtureSession {
  file: string;
  lines: FixtureLine[];
}

/** The hook file each Claude Code hook event runs. */
export const hookFile = Object.fromEntries(hookTable.map((spec) => [spec.event, spec.file])) as Record<FixtureLine['hook'], string>;

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
