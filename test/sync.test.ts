import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { newEventId } from '../src/events/event-id.js';
import { writeSpoolFile } from '../src/hooks/write-spool-file.js';
import { shareableIn } from '../src/sync/shareable-events.js';
import { syncFolder } from '../src/sync/sync-settings.js';
import { readSyncStatus, type SyncStatus } from '../src/sync/sync-status.js';
import { natsServerMissing, startNatsServer, type NatsServer } from './support/nats-server.js';
import { dumpLog, runCli, useTempHomes, walkFiles, type TempHome } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();
const servers: NatsServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.cleanup();
});

/** Workers take seconds to start on two cores shared by every test process. */
const SLOW = 240_000;
const PROJECT = '/home/dev/src/payments-api';

async function server(): Promise<NatsServer> {
  const s = await startNatsServer();
  servers.push(s);
  return s;
}

/** A machine: its own ENGRAM_HOME and Claude directory, syncing as `dev` through `url`. */
function machine(url: string): TempHome {
  return home({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: url, ENGRAM_SYNC_USER: 'dev', ENGRAM_WORKER_IDLE_MS: '600000' });
}

async function startWorker(m: TempHome): Promise<void> {
  const result = await runCli(['worker', '--detach'], m.env);
  if (result.code !== 0) throw new Error(`worker did not start: ${result.stderr}`);
}

function status(m: TempHome): SyncStatus | undefined {
  return readSyncStatus(syncFolder(m.paths));
}

let counter = 0;
function prompt(text: string, session = 'session-a'): Envelope {
  return {
    id: newEventId(Date.now() * 1000 + counter++, process.pid), type: 'PromptSubmitted', schemaVersion: 2,
    ts: new Date(Date.parse('2026-06-01T10:00:00Z') + counter * 1000).toISOString(), session, project: PROJECT,
    data: { prompt: text, chars: text.length, truncated: false },
  };
}

/** The ids of the events a log holds that the personal scope shares, and whether any is there twice. */
async function sharedIds(m: TempHome): Promise<{ ids: Set<string>; count: number }> {
  const events = await dumpLog(m.env);
  const shared = events.filter((e) => shareableIn('personal', e.type));
  return { ids: new Set(shared.map((e) => e.id)), count: shared.length };
}

function memoryFiles(m: TempHome): Record<string, string> {
  return walkFiles(join(m.root, 'claude', 'projects'));
}

async function converged(a: TempHome, b: TempHome, expected: number): Promise<boolean> {
  return waitUntil(async () => {
    const [x, y] = [await sharedIds(a), await sharedIds(b)];
    return x.ids.size >= expected && x.ids.size === y.ids.size && [...x.ids].every((id) => y.ids.has(id));
  }, 90_000);
}

describe.skipIf(natsServerMissing)(`personal sync through a real nats-server${natsServerMissing ? ` (skipped: ${natsServerMissing})` : ''}`, () => {
  it('a correction on A becomes the same memory file on B, and each log holds every event once', async () => {
    const nats = await server();
    const [a, b] = [machine(nats.url), machine(nats.url)];
    await startWorker(a);
    await startWorker(b);
    writeSpoolFile(a.paths, prompt('No, I told you: integration tests must hit the real database, not mocks'));
    writeSpoolFile(a.paths, prompt('from now on deploys go through Helm'));
    const file = (m: TempHome) => Object.keys(memoryFiles(m)).find((p) => /real-database/.test(p));
    expect(await waitUntil(() => file(b) !== undefined, 60_000)).toBe(true);
    expect(await waitUntil(() => JSON.stringify(memoryFiles(a)) === JSON.stringify(memoryFiles(b)), 30_000)).toBe(true);
    expect(memoryFiles(b)[file(b)!]).toMatch(/real database/);
    const [x, y] = [await sharedIds(a), await sharedIds(b)];
    expect(y.ids).toEqual(x.ids);
    // Nothing twice: A's own events came back from the stream and were skipped.
    expect(x.count).toBe(x.ids.size);
    expect(y.count).toBe(y.ids.size);
    // Status says what happened, and no status line names a credential.
    expect(await waitUntil(() => (status(a)?.lastAck?.seq ?? 0) > 0 && (status(b)?.imported ?? 0) >= 2)).toBe(true);
    const shown = await runCli(['sync', 'status'], b.env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/connected/);
    expect(shown.stdout).toMatch(/received: up to stream seq \d+/);
  }, SLOW);
});
