import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';

/**
 * One build's runtime under the runtime directory (runtime-dir.ts): `<build>/` holds its
 * package.json, lockfile, node_modules, `status.json` while it is prepared, and `main.js`, the
 * bundled CLI and worker, written last, so that its presence means ready. A build of its own
 * per directory: an update prepares the new build's while the old worker still runs from its own.
 */
export function runtimeBuildDir(runtime: string, build: string): string {
  return join(runtime, build);
}

export function runtimeCli(runtime: string, build: string): string {
  return join(runtimeBuildDir(runtime, build), 'main.js');
}

// Built when a status is read: the hooks bundle this file and most of their runs never read one.
const statusSchema = () => z.looseObject({
  state: z.enum(['preparing', 'failed']),
  /** What it is doing (or failed at), in words a person reads. */
  step: z.string(),
  since: z.string(),
  pid: z.optional(z.number()),
  error: z.optional(z.string()),
});

export type RuntimeStatus = z.infer<ReturnType<typeof statusSchema>>;

export function runtimeStatusPath(runtime: string, build: string): string {
  return join(runtimeBuildDir(runtime, build), 'status.json');
}

/** The prepare step's last word, or undefined when there is none (never started) or it cannot be read. */
export function readRuntimeStatus(runtime: string, build: string): RuntimeStatus | undefined {
  try {
    const parsed = statusSchema().safeParse(JSON.parse(readFileSync(runtimeStatusPath(runtime, build), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
