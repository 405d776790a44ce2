import type { Clock } from '../clock.js';
import type { EngramPaths } from '../paths.js';
import type { EngineCommandContext, Terminal } from './run-engine-command.js';

/** What main.ts hands each command it runs (see COMMANDS there). */
export interface CliContext {
  /** The environment as given, before config.json: `engram config` works on the file as it is. */
  given: NodeJS.ProcessEnv;
  /** The environment with config.json's settings filled in. */
  env: NodeJS.ProcessEnv;
  paths: EngramPaths;
  clock: Clock;
  terminal: Terminal;
  ctx: EngineCommandContext;
  /** Why config.json could not be read, for `engram doctor` (every other command stops on it). */
  configProblem: unknown;
}

/** One command (or a family of them) of the CLI; `command` is its name as typed. */
export type CliCommand = (command: string, args: string[], cli: CliContext) => Promise<number>;
