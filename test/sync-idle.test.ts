import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeError } from '../src/errors.js';
import { newEventId } from '../src/events/event-id.js';
import { writeSpoolFile } from '../src/hooks/write-spool-file.js';
import { syncFolder, syncFromEnv } from '../src/sync/sync-settings.js';
import { readSyncStatus } from '../src/sync/sync-status.js';
import { freePort, natsServerMissing, startNatsServer } from './support/nats-server.js';
import { cliHere, useTempHomes } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(natsServerMissing)(`the forwarder while the server is away${natsServerMissing ? ` (skipped: ${natsServerMissing})` : ''}`, () => {
  it('backs off between rounds without holding the worker awake: it idles out, and the next worker sends what is left', async () => {
    // Nothing listens on this port yet: the server is away.
    const port = await freePort();
    const m = home({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: `nats://127.0.0.1:${port}`, ENGRAM_SYNC_USER: 'dev', ENGRAM_WORKER_IDLE_MS: '2000' });
    const prompt = { id: newEventId(Date.now() * 1000, process.pid), type: 'PromptSubmitted', schemaVersion: 2, ts: '2026-06-01T10:00:00.000Z', session: 's', project: '/home/dev/src/api', data: { prompt: 'an ordinary prompt', chars: 18, truncated: false } };
    writeSpoolFile(m.paths, prompt);
    expect((await cliHere(['worker', '--detach'], m.env)).code).toBe(0);
    const status = () => readSyncStatus(syncFolder(m.paths));
    expect(await waitUntil(() => status()?.lastError !== undefined, 60_000)).toBe(true);
    const pid = status()!.pid;
    // The forwarder has something to send and cannot: the worker still idles out (before, each
    // round waited 10 s for a connection and the next began a second later: never idle).
    expect(await waitUntil(() => !alive(pid), 120_000)).toBe(true);
    expect(readFileSync(m.paths.workerLog, 'utf8')).toMatch(/stopping: idle/);
    expect(status()!.forwardedTo).toBe(0);

    // The server comes; the next worker sends the event the first one could not.
    const nats = await startNatsServer({ port });
    try {
      expect((await cliHere(['worker', '--detach'], m.env)).code).toBe(0);
      expect(await waitUntil(() => (status()?.lastAck?.seq ?? 0) >= 1, 60_000)).toBe(true);
    } finally {
      await cliHere(['worker', 'stop'], m.env);
      await nats.cleanup();
    }
  }, 240_000);
});

describe('syncTimeoutMs', () => {
  it('is 5000 ms unless set; a value not whole or under 100 is refused, naming the setting', () => {
    const paths = { home: '/tmp/engram-sync-timeout' };
    const base = { ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: 'nats://127.0.0.1:4222', ENGRAM_SYNC_USER: 'dev' };
    expect(syncFromEnv(base, paths)!.timeoutMs).toBe(5000);
    expect(syncFromEnv({ ...base, ENGRAM_SYNC_TIMEOUT_MS: '2000' }, paths)!.timeoutMs).toBe(2000);
    for (const bad of ['99', '1.5', 'soon']) {
      let said = '';
      try {
        syncFromEnv({ ...base, ENGRAM_SYNC_TIMEOUT_MS: bad }, paths);
      } catch (err) {
        said = describeError(err);
      }
      expect(said).toMatch(/syncTimeoutMs must be a whole number of ms, at least 100/);
    }
  });
});
