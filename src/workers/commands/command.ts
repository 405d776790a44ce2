import type { z } from 'zod';
import type { Engine } from '../engine/engine.js';

/** Where a command writes: the CLI's own stdout/stderr, or the socket back to it. */
export interface CommandOutput {
  /** Resolves once the reader can take more, so a dump of the whole log never piles up in memory. */
  out(text: string): Promise<void>;
  err(text: string): void;
  progress(done: number, total: number): void;
}

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
  run(engine: Engine, args: A, output: CommandOutput): Promise<number>;
}

export function defineCommand<A>(command: EngineCommand<A>): EngineCommand<A> {
  return command;
}
