import { EngramError } from './errors.js';

/** The only way engram reads the time, so tests and replays can set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date): Clock {
  return { now: () => new Date(at.getTime()) };
}

/** `ENGRAM_NOW` (an ISO time) pins the clock; unset, the system clock. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const pinned = env.ENGRAM_NOW;
  if (!pinned) return systemClock;
  const at = new Date(pinned);
  if (Number.isNaN(at.getTime())) {
    throw new EngramError('USAGE', `ENGRAM_NOW is not an ISO time: ${JSON.stringify(pinned)}`);
  }
  return fixedClock(at);
}
