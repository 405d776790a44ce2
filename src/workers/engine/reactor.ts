import type { Clock } from '../../clock.js';
import type { Envelope } from '../../events/envelope.js';
import type { EngramPaths } from '../../paths.js';
import type { ProjectionRunner } from './projection-runner.js';

export interface ReactorContext {
  runner: ProjectionRunner;
  paths: EngramPaths;
  clock: Clock;
  /** A fresh unique event id. */
  newId(): string;
}

/**
 * Acts on the world and records what it saw or did as new events. A reactor reads projections
 * (only once they have caught up with the log) and returns events to append; it never writes a
 * projection. Rebuilds and replays do not run reactors, so nothing is ever done twice.
 */
export interface Reactor {
  readonly name: string;
  react(ctx: ReactorContext): Promise<Envelope[]>;
}
