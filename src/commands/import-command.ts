import { readdirSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { readMemoryDir } from '../memories/read-memory-dir.js';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../paths.js';
import { defineCommand } from './command.js';
import { planImport } from './import-plan.js';
import { listMemories } from './memory-lookup.js';

/**
 * `engram import DIR [--project PATH | --global]`: an existing memory directory's memories, as
 * MemoryProposed events (origin import), into the project's memory directory or the global one.
 * Prints what was imported, what already was, and what was reported and left untouched. Exit 0
 * when anything was imported or already had been; 1 when nothing could be.
 */
export const importCommand = defineCommand({
  name: 'import',
  access: 'write',
  args: z.object({ dir: z.string().min(1), project: z.string().min(1).optional(), global: z.boolean().default(false) }),
  async run(engine, args, output) {
    await engine.runner.catchUp();
    if (!args.global && args.project === undefined) throw new EngramError('USAGE', 'engram import DIR [--project PATH | --global]');
    const project = args.global ? '' : args.project!;
    const target = args.global ? GLOBAL_MEMORY_DIR : projectMemoryDir(project);
    const read = await readMemoryDir(args.dir);
    const targetReal = await realpath(join(engine.paths.claude, target)).catch(() => undefined);
    const plan = planImport({
      read,
      target,
      project,
      inPlace: targetReal === read.realDir,
      rows: await listMemories(engine, undefined),
      at: engine.clock.now().toISOString(),
      onDisk: filesIn(join(engine.paths.claude, target)),
    });
    const appended = await engine.record(plan.events);
    const lines = [
      ...plan.imported.map((line) => `imported: ${line}`),
      ...plan.already.map((line) => `already imported: ${line}`),
      ...plan.reported.map((line) => `not imported, left as it is: ${line}`),
      `${plan.imported.length} imported, ${plan.already.length} already there, ${plan.reported.length} reported; ${appended} events recorded; into ${join(engine.paths.claude, target)}`,
    ];
    await output.out(`${lines.join('\n')}\n`);
    return plan.imported.length + plan.already.length > 0 || plan.reported.length === 0 ? 0 : 1;
  },
});

/** The file names in a memory directory and its `_archive/`, lower-cased: names taken on disk. */
function filesIn(dir: string): Set<string> {
  const names = new Set<string>();
  const list = (at: string, prefix: string) => {
    try {
      for (const name of readdirSync(at)) names.add(`${prefix}${name}`.toLowerCase());
    } catch {
      // No directory yet: nothing is taken.
    }
  };
  list(dir, '');
  list(join(dir, '_archive'), '_archive/');
  return names;
}
