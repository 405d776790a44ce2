import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_ID } from '../build-id.js';
import type { Envelope } from '../events/envelope.js';
import { HookWritesFailed } from '../events/engram-events.js';
import { parseLostMarker, type LostMarker } from '../spool/lost-marker.js';
import type { EventLog } from '../log/event-log.js';
import type { EngramPaths } from '../paths.js';

/** A batch of markers being counted: a directory in spool/lost whose name starts so. */
const CLAIM = '.claim-';

/**
 * Turns the markers hooks left in spool/lost (hooks/lost-marker.ts) into HookWritesFailed events,
 * exactly once under a kill at any step: the markers are first moved into a claim directory
 * named after the set, the events' ids come from that name, and the directory goes only once the
 * log holds them. A claim found at the start of a pass is a crashed pass's: it is counted again
 * under the same ids (the log keeps them once) and removed. Returns the lost events counted now.
 */
export async function recordLostWrites(ctx: { log: EventLog; paths: EngramPaths }): Promise<number> {
  const names = list(ctx.paths.spoolLost);
  if (names.length === 0) return 0;
  let counted = 0;
  for (const claim of names.filter((name) => name.startsWith(CLAIM))) counted += await settle(ctx, claim);
  const markers = names.filter((name) => parseLostMarker(name) !== undefined).sort();
  if (markers.length === 0) return counted;
  const claim = `${CLAIM}${createHash('sha256').update(markers.join('\n')).digest('hex').slice(0, 24)}`;
  const dir = join(ctx.paths.spoolLost, claim);
  mkdirSync(dir, { recursive: true });
  for (const name of markers) {
    try {
      renameSync(join(ctx.paths.spoolLost, name), join(dir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return counted + (await settle(ctx, claim));
}

async function settle(ctx: { log: EventLog; paths: EngramPaths }, claim: string): Promise<number> {
  const dir = join(ctx.paths.spoolLost, claim);
  const markers = list(dir).map(parseLostMarker).filter((marker): marker is LostMarker => marker !== undefined);
  const byReason = new Map<string, LostMarker[]>();
  for (const marker of markers) byReason.set(marker.reason, [...(byReason.get(marker.reason) ?? []), marker]);
  const events: Envelope[] = [...byReason].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([reason, group]) => {
    const times = group.map((marker) => marker.micros).sort((a, b) => a - b);
    const lastAt = iso(times.at(-1)!);
    return {
      id: `lost:${claim.slice(CLAIM.length)}:${reason}`,
      type: HookWritesFailed.type,
      schemaVersion: HookWritesFailed.schemaVersion,
      ts: lastAt,
      session: '',
      project: '',
      data: { count: group.length, firstAt: iso(times[0]!), lastAt, reason, hooks: [...new Set(group.map((marker) => marker.hook))].sort().slice(0, 20) },
      producer: BUILD_ID,
    };
  });
  const { appended } = events.length > 0 ? await ctx.log.append(events) : { appended: [] };
  rmSync(dir, { recursive: true, force: true });
  const fresh = new Set(appended.map((event) => event.id));
  return events.filter((event) => fresh.has(event.id)).reduce((sum, event) => sum + (event.data as { count: number }).count, 0);
}

function iso(micros: number): string {
  return new Date(Math.floor(micros / 1000)).toISOString();
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
