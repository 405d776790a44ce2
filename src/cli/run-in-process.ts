import { settingsReport } from '../config/settings-report.js';
import { EngramError, isEngramError } from '../errors.js';
import { embedderChoice } from '../recall/embedders/embedder-choice.js';
import { engineCommands } from '../commands/all-commands.js';
import { commandArgs, type CommandOutput } from '../commands/command.js';
import { openEngine, type ComposedEngine } from '../composition/open-engine.js';
import { ingestFromEnv } from '../ingest/ingest-from-env.js';
import { distillerFromEnv } from '../reactors/distiller-from-env.js';
import { skillsFromEnv } from '../reactors/skills-from-env.js';
import type { Clock } from '../clock.js';
import type { EngramPaths } from '../paths.js';
import { isBrokenPipe } from './is-broken-pipe.js';

/**
 * An engine command when no worker answers: the engine opened in this process for it, then
 * closed. 'locked' while another process holds the log and `deadline` has not passed (the
 * caller asks the worker again, then comes back). The engine's modules are this file's imports:
 * run-engine-command.ts loads it only when no worker answered.
 */
export async function runInProcess(
  name: string,
  args: Record<string, unknown>,
  ctx: { paths: EngramPaths; clock: Clock; env?: NodeJS.ProcessEnv },
  output: CommandOutput,
  deadline: number,
  /** Called once the command is done, whichever way (the caller's progress bar is cleared). */
  done: () => void,
): Promise<number | 'locked'> {
  const command = engineCommands().get(name);
  if (!command) throw new EngramError('USAGE', `unknown command ${name}`);
  let engine: ComposedEngine;
  try {
    engine = await openEngine({
      paths: ctx.paths,
      clock: ctx.clock,
      access: command.access,
      distiller: command.access === 'write' ? distillerFromEnv(ctx.env ?? process.env, ctx.paths) : undefined,
      embedder: embedderChoice(ctx.env ?? process.env),
      skills: skillsFromEnv(ctx.env ?? process.env, ctx.paths),
      settings: settingsReport('cli', ctx.env ?? process.env),
      ingest: ingestFromEnv(ctx.env ?? process.env),
    });
  } catch (err) {
    if (!isEngramError(err, 'LOG_LOCKED') || Date.now() > deadline) throw err;
    return 'locked';
  }
  try {
    return await command.run(engine, commandArgs(command, args), output);
  } catch (err) {
    if (isBrokenPipe(err)) return 0;
    throw err;
  } finally {
    done();
    await engine.close();
  }
}
