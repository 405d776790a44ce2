import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EngramError } from '../errors.js';
import { runEngineCommand, type EngineCommandContext } from './run-engine-command.js';
import { SKILLS_USAGE } from './usage.js';

/**
 * `engram skills …`. A memory is named as `engram memories` names it (name, file or id); the
 * project is the current directory unless `--project` says otherwise. `curate` moves archivable
 * skills only when ENGRAM_CURATOR_ARCHIVE=1; `--dry-run` records and moves nothing.
 */
export async function skillsCli(args: string[], ctx: EngineCommandContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      json: { type: 'boolean', default: false },
      skill: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      now: { type: 'string' },
    },
  });
  const [sub, ...names] = positionals;
  const project = resolve(values.project ?? process.cwd());
  const memory = names.join(' ');
  const env = ctx.env ?? process.env;
  switch (sub) {
    case undefined:
    case 'suggest':
      return runEngineCommand('skills.suggest', { project, json: values.json }, ctx);
    case 'accept':
      if (memory === '' || !values.skill) break;
      return runEngineCommand('skills.accept', { memory, project, skill: values.skill }, ctx);
    case 'decline':
      if (memory === '') break;
      return runEngineCommand('skills.decline', { memory, project }, ctx);
    case 'curate': {
      const args = { archive: env.ENGRAM_CURATOR_ARCHIVE === '1', ...(values.now ? { now: values.now } : {}) };
      return runEngineCommand(values['dry-run'] ? 'skills.curate-plan' : 'skills.curate', args, ctx);
    }
    default:
      break;
  }
  throw new EngramError('USAGE', SKILLS_USAGE);
}
