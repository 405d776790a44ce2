import { z } from 'zod';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../paths.js';
import { knownDirs, reconcileDirs, type ReconcileTarget } from '../reactors/reconciler.js';
import type { Engine } from '../engine/engine.js';
import { defineCommand } from './command.js';

/**
 * `engram reconcile [--project PATH]`: records what was changed by hand in the memory
 * directories (edits, new files, deletions, a standalone MEMORY.md), as the reconciler reactor
 * does on its own; with `--project`, that project's directory and the global one, else every
 * directory engram knows.
 */
export const reconcileCommand = defineCommand({
  name: 'reconcile',
  access: 'write',
  args: z.object({ project: z.string().min(1).optional() }),
  async run(engine, args, output) {
    const { notes, appended } = await reconcileNow(engine, args.project);
    await output.out(`${[...notes, `${appended} events recorded`].join('\n')}\n`);
    return 0;
  },
});

/** Reconciles now (a project's directory and the global one, or every known directory), records what it found. */
export async function reconcileNow(engine: Engine, project: string | undefined): Promise<{ notes: string[]; appended: number }> {
  await engine.runner.catchUp();
  const targets = new Map<string, ReconcileTarget>();
  const dirs = project === undefined ? await knownDirs(engine.runner) : [projectMemoryDir(project), GLOBAL_MEMORY_DIR];
  for (const dir of dirs) targets.set(dir, { project: dir === GLOBAL_MEMORY_DIR ? '' : project, agentFiles: new Set() });
  const result = await reconcileDirs(engine.runner, engine.paths, targets, engine.clock.now().toISOString());
  return { notes: result.notes, appended: await engine.record(result.events) };
}
