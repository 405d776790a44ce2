import type { z } from 'zod';
import { EngramError } from '../errors.js';
import type { ComposedEngine } from '../composition/open-engine.js';

/** Where a command writes: the CLI's own stdout/stderr, or the socket back to it. */
export interface CommandOutput {
  /** Resolves once the reader can take more, so a dump of the whole log never piles up in memory. */
  out(text: string): Promise<void>;
  err(text: string): void;
  /** How far a long command is, in `unit` (default `events`): shown as a bar on a terminal. */
  progress(done: number, total: number, unit?: ProgressUnit): void;
}

/** What a command's progress counts. */
export type ProgressUnit = 'events' | 'bytes';

/**
 * A command that needs the log. It runs wherever the log is held: inside the running worker
 * (asked over the socket) or in the CLI's own process when no worker runs. Same code, same
 * output, either way.
 */
export interface EngineCommand<A> {
  readonly name: string;
  /**
   * `read`: the command only looks (run in-process, it opens the log without creating it and
   * never starts a projection over or advances it). `write`: it may do both.
   */
  readonly access: 'read' | 'write';
  readonly args: z.ZodType<A>;
  run(engine: ComposedEngine, args: A, output: CommandOutput): Promise<number>;
}

export function defineCommand<A>(command: EngineCommand<A>): EngineCommand<A> {
  return command;
}

/**
 * A command's arguments, checked: a value the command refuses is a usage mistake said in words
 * (`--skill: a skill name, not a path`), never the schema library's issue list.
 */
export function commandArgs<A>(command: EngineCommand<A>, args: unknown): A {
  const parsed = command.args.safeParse(args);
  if (parsed.success) return parsed.data;
  const said = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.length > 0 ? `--${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ');
  throw new EngramError('USAGE', said, { cause: parsed.error });
}
