import { afterEach, describe, expect, it } from 'vitest';
import { writeSpoolFile } from '../src/hooks/write-spool-file.js';
import { natsServerMissing, startNatsServer, type NatsServer } from './support/nats-server.js';
import { ackedSeq, converged, memoryFiles, rebuildKeepsFiles, streamMessages, syncMachine, syncPrompt, syncStatus, startWorker } from './support/sync-machines.js';
import { useTempHomes } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();
const servers: NatsServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    // A stopped server takes no SIGKILL until it runs again: never leave one behind.
    if (server.pid !== undefined) {
      try {
        process.kill(server.pid, 'SIGCONT');
      } catch {
        // already gone
      }
    }
    await server.cleanup();
  }
});

/** Workers take seconds to start on two cores shared by every test process. */
const SLOW = 240_000;

describe.skipIf(natsServerMissing)(`sync through a paused server${natsServerMissing ? ` (skipped: ${natsServerMissing})` : ''}`, () => {
  it('a server stopped (SIGSTOP) past the client\'s timeouts while A publishes loses nothing and stores nothing twice; each rebuild writes its own files again', async () => {
    const nats = await startNatsServer();
    servers.push(nats);
    const [a, b] = [syncMachine(home, nats.url), syncMachine(home, nats.url)];
    // Side by side: each start is mostly the worker's own imports and log open, on two cores.
    await Promise.all([startWorker(a), startWorker(b)]);
    let written = 0;
    const write = (n: number) => {
      for (let i = 0; i < n; i++) writeSpoolFile(a.paths, syncPrompt(`prompt ${written++} about the ledger`));
    };
    writeSpoolFile(a.paths, syncPrompt('No, I told you: integration tests must hit the real database, not mocks'));
    write(600);
    // Mid-publish: some acked, the rest in flight or still to read from the log.
    expect(await waitUntil(() => ackedSeq(a) > 0)).toBe(true);
    process.kill(nats.pid!, 'SIGSTOP');
    write(400);
    // Paused until the client itself gave the connection up (its pings unanswered, the publishes'
    // acks timed out): longer than every timeout it has, whatever they are.
    expect(await waitUntil(() => syncStatus(a)?.connected === false && syncStatus(b)?.connected === false, 60_000)).toBe(true);
    expect(syncStatus(a)!.lastError).toBeDefined();
    process.kill(nats.pid!, 'SIGCONT');
    writeSpoolFile(a.paths, syncPrompt('from now on deploys go through Helm'));
    write(200);
    const logs = await converged(a, b, 1202);
    expect(logs).toBeDefined();
    const { a: x, b: y } = logs!;
    expect(y.ids).toEqual(x.ids);
    expect(x.count).toBe(x.ids.size);
    expect(y.count).toBe(y.ids.size);
    expect(y.events.filter((e) => e.type === 'PromptSubmitted')).toHaveLength(1202);
    // The server, woken, took the publishes it had buffered and then their resends: stored once, by id.
    expect(await streamMessages(nats.url)).toBe(x.ids.size);
    expect(await waitUntil(() => JSON.stringify(memoryFiles(a)) === JSON.stringify(memoryFiles(b)), 30_000)).toBe(true);
    expect(Object.keys(memoryFiles(b)).some((p) => /real-database/.test(p))).toBe(true);
    // Each machine folds its own log (A's events in a different order from B's imports): a rebuild
    // of either writes that machine's files again byte for byte.
    // Both machines side by side: the stop and rebuild of one overlap the waits of the other.
    for (const { before, after } of await Promise.all([a, b].map(rebuildKeepsFiles))) {
      expect(Object.keys(before).some((p) => /memory\/.*real-database/.test(p))).toBe(true);
      expect(after).toEqual(before);
    }
  }, SLOW);
});
