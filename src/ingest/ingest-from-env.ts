import * as z from 'zod/mini';
import { EngramError } from '../errors.js';
import type { IngestOptions } from './ingest.js';

const atLeast = (min: number) => z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isInteger(n) && n >= min));

/**
 * The spool's timings from the environment (src/config/setting-table.ts), each left to
 * IngestOptions' default when unset or '': `ENGRAM_SPOOL_STALE_MS` (staleTmpMs, 10,000) and
 * `ENGRAM_SPOOL_FUTURE_WAIT_MS` (futureWaitMs, 2,000). A value that does not parse is a USAGE
 * error naming it, never a silent default.
 */
export function ingestFromEnv(env: NodeJS.ProcessEnv): IngestOptions {
  const staleTmpMs = ms(env, 'ENGRAM_SPOOL_STALE_MS', 1);
  const futureWaitMs = ms(env, 'ENGRAM_SPOOL_FUTURE_WAIT_MS', 0);
  return { ...(staleTmpMs === undefined ? {} : { staleTmpMs }), ...(futureWaitMs === undefined ? {} : { futureWaitMs }) };
}

function ms(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const parsed = atLeast(min).safeParse(raw);
  if (!parsed.success) throw new EngramError('USAGE', `${name} is ${JSON.stringify(raw.slice(0, 40))}, not a whole number of ms of at least ${min}`, { cause: parsed.error });
  return parsed.data;
}
