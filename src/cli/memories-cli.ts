import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EngramError } from '../errors.js';
import { runEngineCommand, type EngineCommandContext } from './run-engine-command.js';
import { MEMORIES_USAGE } from './usage.js';

/**
 * `engram memories …`. A memory is named by its name, its file or its id; the project is the
 * current directory unless `--project` says otherwise, and global memories are seen from all.
 */
export async function memoriesCli(args: string[], ctx: EngineCommandContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      reason: { type: 'string' },
      history: { type: 'boolean', default: false },
    },
  });
  const [sub, ...names] = positionals;
  const project = resolve(values.project ?? process.cwd());
  if (sub === 'list') return runEngineCommand('memories.list', { project, all: values.all, json: values.json }, ctx);
  const query = names.join(' ');
  if (!['show', 'pin', 'unpin', 'forget', 'restore', 'reinforce'].includes(sub ?? '') || query === '') {
    throw new EngramError('USAGE', MEMORIES_USAGE);
  }
  return runEngineCommand(`memories.${sub}`, { query, project, ...(values.reason ? { reason: values.reason } : {}), ...(values.history && sub === 'show' ? { history: true } : {}) }, ctx);
}
