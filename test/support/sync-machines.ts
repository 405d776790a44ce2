import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Envelope } from '../../src/events/envelope.js';
import { newEventId } from '../../src/events/event-id.js';
import { shareableIn } from '../../src/sync/shareable-events.js';
import { syncFolder } from '../../src/sync/sync-settings.js';
import { readSyncStatus, type SyncStatus } from '../../src/sync/sync-status.js';
import { cliHere, dumpLog, walkFiles, type TempHome } from './temp-home.js';
import { waitUntil } from './wait-until.js';

/** The machines of the sync tests: each its own ENGRAM_HOME and worker, syncing as `dev`. */

export const SYNC_PROJECT = '/home/dev/src/payments-api';

/**
 * A machine syncing through `url` (comma-separated for a cluster), made by the test file's
 * `useTempHomes()`. It waits 1 s, not 5, on a server gone silent (syncTimeoutMs): the fault tests
 * wait out the client's pings, acks and stalled fetches, which take two or three of these each.
 */
export function syncMachine(home: (env?: NodeJS.ProcessEnv) => TempHome, url: string, env: NodeJS.ProcessEnv = {}): TempHome {
  return home({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: url, ENGRAM_SYNC_USER: 'dev', ENGRAM_WORKER_IDLE_MS: '600000', ENGRAM_SYNC_TIMEOUT_MS: '1000', ...env });
}

/** `engram worker --detach` run in this process (the worker itself is its own detached process, as ever). */
export async function startWorker(m: TempHome): Promise<void> {
  const result = await cliHere(['worker', '--detach'], m.env);
  if (result.code !== 0) throw new Error(`worker did not start: ${result.stderr}`);
}

export async function stopWorker(m: TempHome): Promise<void> {
  const result = await cliHere(['worker', 'stop'], m.env);
  if (result.code !== 0) throw new Error(`worker did not stop: ${result.stderr}`);
}

export function syncStatus(m: TempHome): SyncStatus | undefined {
  return readSyncStatus(syncFolder(m.paths));
}

/** The local seq of A's last acked publish (0 before the first). */
export function ackedSeq(m: TempHome): number {
  return syncStatus(m)?.lastAck?.seq ?? 0;
}

let counter = 0;
/** A prompt as the UserPromptSubmit hook spools it. */
export function syncPrompt(text: string, session = 'session-a'): Envelope {
  counter++;
  return {
    id: newEventId(Date.now() * 1000 + counter, process.pid), type: 'PromptSubmitted', schemaVersion: 2,
    ts: new Date(Date.parse('2026-06-01T10:00:00Z') + counter * 1000).toISOString(), session, project: SYNC_PROJECT,
    data: { prompt: text, chars: text.length, truncated: false },
  };
}

/** A machine's log as one `log dump` read it: the ids of the events the personal scope shares, how many there are with repeats, and every event. */
export interface SharedEvents {
  ids: Set<string>;
  count: number;
  events: Array<Record<string, any>>;
}

export async function sharedIds(m: TempHome): Promise<SharedEvents> {
  const events = await dumpLog(m.env);
  const shared = events.filter((e) => shareableIn('personal', e.type));
  return { ids: new Set(shared.map((e) => e.id)), count: shared.length, events };
}

/** How many messages the sync stream holds, asked of any of `urls`. */
export async function streamMessages(urls: string | string[]): Promise<number> {
  const nc = await connect({ servers: urls });
  try {
    return (await (await jetstreamManager(nc)).streams.info('ENGRAM')).state.messages;
  } finally {
    await nc.close();
  }
}

/**
 * The memory files as they stand, read while a worker may be writing: its temporary files left
 * out, and Claude Code's transcripts (`*.jsonl`, beside them: one machine's own), a walk that met
 * a file renamed under it done again.
 */
export function memoryFiles(m: TempHome): Record<string, string> {
  for (;;) {
    try {
      return Object.fromEntries(Object.entries(walkFiles(join(m.root, 'claude', 'projects'))).filter(([path]) => !/\/\.engram-[^/]*\.tmp$/.test(path) && !path.endsWith('.jsonl')));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Waits until A has sent everything and B has taken in everything the stream holds (read from
 * their status files: cheap), then compares the two logs (two `log dump`s: not cheap). Resolves
 * with the two logs as last read, for the test's own checks (no dump again), or undefined when
 * they did not come to hold the same events in time.
 */
export async function converged(a: TempHome, b: TempHome, expected: number, timeoutMs = 120_000): Promise<{ a: SharedEvents; b: SharedEvents } | undefined> {
  const settled = await waitUntil(() => {
    const [x, y] = [syncStatus(a), syncStatus(b)];
    return x !== undefined && y !== undefined && x.localHead >= expected && x.forwardedTo === x.localHead && x.lastAck !== undefined &&
      y.pending === 0 && y.importedTo >= x.lastAck.streamSeq;
  }, timeoutMs);
  if (!settled) return undefined;
  let last: { a: SharedEvents; b: SharedEvents } | undefined;
  const same = await waitUntil(async () => {
    const [x, y] = [await sharedIds(a), await sharedIds(b)];
    last = { a: x, b: y };
    return x.ids.size >= expected && x.ids.size === y.ids.size && [...x.ids].every((id) => y.ids.has(id));
  }, 60_000);
  return same ? last : undefined;
}

/**
 * Stops the machine's worker, then checks that `engram rebuild` writes its views and memory files
 * again byte for byte: returns the files before and after, for `toEqual`.
 */
export async function rebuildKeepsFiles(m: TempHome): Promise<{ before: Record<string, string>; after: Record<string, string> }> {
  await stopWorker(m);
  const before = walkFiles(m.paths.views, m.paths.claude);
  const rebuilt = await cliHere(['rebuild'], m.env);
  if (rebuilt.code !== 0) throw new Error(`rebuild failed: ${rebuilt.stderr}`);
  return { before, after: walkFiles(m.paths.views, m.paths.claude) };
}

/** What a machine's sync says of itself (status and the worker log's last sync lines), for a failed test's output. */
export function syncDiagnosis(m: TempHome): string {
  let lines: string[] = [];
  try {
    lines = readFileSync(m.paths.workerLog, 'utf8').split('\n').filter((line) => /sync/.test(line)).slice(-15);
  } catch {
    // no worker log yet
  }
  return `${m.root}\nstatus: ${JSON.stringify(syncStatus(m))}\n${lines.join('\n')}`;
}
