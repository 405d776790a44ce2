import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { writeSpoolFile } from '../src/hooks/write-spool-file.js';
import { syncFolder } from '../src/sync/sync-settings.js';
import { natsServerMissing, startNatsServer, type NatsServer } from './support/nats-server.js';
import { converged, memoryFiles, sharedIds, startWorker, stopWorker, streamMessages, syncMachine, syncPrompt as prompt, syncStatus as status } from './support/sync-machines.js';
import { cliHere, dumpLog, tempHome, useTempHomes, type TempHome } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();
const servers: NatsServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.cleanup();
});

/** Workers take seconds to start on two cores shared by every test process. */
const SLOW = 240_000;

async function server(): Promise<NatsServer> {
  const s = await startNatsServer();
  servers.push(s);
  return s;
}

/** A machine: its own ENGRAM_HOME and Claude directory, syncing as `dev` through `url`. */
const machine = (url: string): TempHome => syncMachine(home, url);

describe.skipIf(natsServerMissing)(`personal sync through a real nats-server${natsServerMissing ? ` (skipped: ${natsServerMissing})` : ''}`, () => {
  // One server and two machines for the tests that only add events of their own (none kills or
  // restarts the server or A, and each looks only at what its events made): two workers' starts, not six.
  describe('two machines that stay up', () => {
    let pair: Promise<{ nats: NatsServer; a: TempHome; b: TempHome }> | undefined;
    const shared = () => (pair ??= (async () => {
      const nats = await startNatsServer();
      const [a, b] = [syncMachine(tempHome, nats.url), syncMachine(tempHome, nats.url)];
      // Both up before A's first event is sent; side by side, each start being mostly the worker's own imports.
      await Promise.all([startWorker(a), startWorker(b)]);
      return { nats, a, b };
    })());
    afterAll(async () => {
      if (!pair) return;
      const { nats, a, b } = await pair;
      await a.cleanup();
      await b.cleanup();
      await nats.cleanup();
    });

    it('a correction on A becomes the same memory file on B, and each log holds every event once', async () => {
      const { a, b } = await shared();
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
      const shown = await cliHere(['sync', 'status'], b.env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/connected/);
      expect(shown.stdout).toMatch(/received: up to stream seq \d+/);
    }, SLOW);

    it('a session that ran on A is captured on A alone: B keeps A\'s transcript excerpt, not a "missing" of its own', async () => {
      const { a, b } = await shared();
      const transcripts = join(a.root, 'claude', 'projects', '-home-dev-src-payments-api');
      mkdirSync(transcripts, { recursive: true });
      const transcriptPath = join(transcripts, 'session-t.jsonl');
      writeFileSync(transcriptPath, `${JSON.stringify({ type: 'user', sessionId: 'session-t', timestamp: '2026-06-01T10:00:00.000Z', message: { role: 'user', content: 'bump the ledger version' } })}\n`);
      const ended: Envelope = { ...prompt('x', 'session-t'), type: 'SessionEnded', schemaVersion: 1, data: { reason: 'other', transcriptPath } };
      writeSpoolFile(a.paths, ended);
      const captured = async (m: TempHome) => (await dumpLog(m.env)).filter((e) => e.type === 'TranscriptCaptured');
      expect(await waitUntil(async () => (await captured(b)).length > 0, 120_000)).toBe(true);
      const [onA, onB] = [await captured(a), await captured(b)];
      expect(onB).toHaveLength(1);
      expect(onB[0]!.data.missing).toBe(false);
      expect(onB[0]!.data.excerpt).toMatch(/bump the ledger version/);
      expect({ ...onB[0], seq: 0 }).toEqual({ ...onA[0], seq: 0 });
    }, SLOW);

    // B's worker stopped, not a third machine: the same catch-up of a backlog (two fetches of 500)
    // from B's cursor, without two more workers' starts.
    it('B offline for 1,000 events catches up when its worker starts, to the same memory files', async () => {
      const { a, b } = await shared();
      await stopWorker(b);
      const { ids: had, events: before } = await sharedIds(a);
      for (let i = 0; i < 999; i++) writeSpoolFile(a.paths, prompt(`an ordinary prompt ${i} about invoices`));
      writeSpoolFile(a.paths, prompt('remember that refunds go through the ledger service'));
      // All 1,000 taken in by A (its spool empty) and sent, before B's worker starts.
      expect(await waitUntil(() => {
        const s = status(a);
        return s !== undefined && readdirSync(a.paths.spoolNew).length === 0 && s.localHead >= before.length + 1000 && s.forwardedTo === s.localHead;
      }, 120_000)).toBe(true);
      await startWorker(b);
      expect(await converged(a, b, had.size + 1000)).toBeDefined();
      expect(await waitUntil(() => JSON.stringify(memoryFiles(a)) === JSON.stringify(memoryFiles(b)), 30_000)).toBe(true);
      expect(Object.keys(memoryFiles(b)).some((p) => /refunds/.test(p))).toBe(true);
    }, SLOW);
  });

  it('kill -9 of the server and of A\'s worker mid-publish lose nothing and store nothing twice', async () => {
    const nats = await server();
    const [a, b] = [machine(nats.url), machine(nats.url)];
    await Promise.all([startWorker(a), startWorker(b)]);
    const written: string[] = [];
    const write = (n: number) => {
      for (let i = 0; i < n; i++) written.push(writeSpoolFile(a.paths, prompt(`prompt ${written.length} about the ledger`)));
    };
    const acked = () => status(a)?.lastAck?.seq ?? 0;
    const t0 = Date.now();
    const phase = (what: string) => console.log(`sync kill test: ${what} after ${((Date.now() - t0) / 1000).toFixed(1)} s (A acked up to local seq ${acked()})`);
    // The server dies while A publishes, and stays away while A keeps taking events in.
    write(500);
    expect(await waitUntil(() => acked() > 0)).toBe(true);
    phase('server killed');
    await nats.kill('SIGKILL');
    write(500);
    // Away until A has said so and has taken those 500 in (its spool empty) without it.
    expect(await waitUntil(() => status(a)?.connected === false && readdirSync(a.paths.spoolNew).length === 0)).toBe(true);
    await nats.start();
    // A's worker dies while it publishes; the next one sends again from its saved cursor.
    const before = acked();
    write(500);
    expect(await waitUntil(() => acked() > before)).toBe(true);
    const pid = status(a)!.pid;
    phase('worker A killed');
    process.kill(pid, 'SIGKILL');
    write(500);
    await startWorker(a);
    phase('worker A restarted');
    const logs = await converged(a, b, 2000);
    expect(logs).toBeDefined();
    phase('converged');
    const { a: x, b: y } = logs!;
    expect(y.ids).toEqual(x.ids);
    expect(x.count).toBe(x.ids.size);
    expect(y.count).toBe(y.ids.size);
    const prompts = y.events.filter((e) => e.type === 'PromptSubmitted');
    expect(prompts).toHaveLength(2000);
    // The stream too holds each event once: the resends were dropped by their Nats-Msg-Id.
    expect(await streamMessages(nats.url)).toBe(x.ids.size);
  }, SLOW);

  it('takes in only what passes the checks: a bad message is kept aside with its reason, never appended', async () => {
    const nats = await server();
    const b = machine(nats.url);
    const good = prompt('a prompt typed on another machine');
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'ENGRAM', subjects: ['engram.>'] });
      const js = jsm.jetstream();
      const subject = 'engram.personal.dev';
      await js.publish(subject, 'not json at all');
      await js.publish(subject, JSON.stringify({ ...prompt('x'), data: { prompt: 42 } }));
      await js.publish(subject, JSON.stringify({ ...prompt('y'), type: 'NoSuchEvent' }));
      await js.publish(subject, JSON.stringify({ ...prompt('z'), type: 'LogRepaired', data: { lostFrom: 1, lostTo: 9, kept: 0, cause: 'tail-lost', reason: 'r' } }));
      await js.publish(subject, JSON.stringify(good), { msgID: good.id });
      // Another person's subject is not this machine's to read.
      await js.publish('engram.personal.someone-else', JSON.stringify(prompt('not mine')));
    } finally {
      await nc.close();
    }
    await startWorker(b);
    expect(await waitUntil(() => (status(b)?.importedTo ?? 0) >= 5)).toBe(true);
    const events = await dumpLog(b.env);
    expect(events.map((e) => e.id)).toContain(good.id);
    expect(events.filter((e) => e.type === 'PromptSubmitted').map((e) => e.data.prompt)).toEqual(['a prompt typed on another machine']);
    expect(events.some((e) => e.type === 'LogRepaired' || e.type === 'NoSuchEvent')).toBe(false);
    const rejected = readdirSync(join(syncFolder(b.paths), 'rejected')).sort();
    expect(rejected).toEqual(['1.json', '2.json', '3.json', '4.json']);
    const reasons = rejected.map((name) => JSON.parse(readFileSync(join(syncFolder(b.paths), 'rejected', name), 'utf8')).reason as string);
    expect(reasons[0]).toBe('not JSON');
    expect(reasons[1]).toMatch(/PromptSubmitted v2 data is invalid/);
    expect(reasons[2]).toMatch(/unknown event type/);
    expect(reasons[3]).toMatch(/not shared in the personal scope/);
    expect(status(b)!.rejected).toBe(4);
  }, SLOW);

  it('redacts what comes in whatever it claims to be, and keeps no secret in what it sets aside', async () => {
    const nats = await server();
    const b = machine(nats.url);
    const token = `ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
    // Stamped as this very build's hook event: the log's door trusts that stamp from its own spool.
    const { BUILD_ID } = (await import(String(new URL('../dist/src/build-id.js', import.meta.url)))) as { BUILD_ID: string };
    const stamped = { ...prompt(`deploy with ${token} please`), producer: BUILD_ID };
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'ENGRAM', subjects: ['engram.>'] });
      const js = jsm.jetstream();
      await js.publish('engram.personal.dev', JSON.stringify(stamped), { msgID: stamped.id });
      await js.publish('engram.personal.dev', `not json, but ${token}`);
    } finally {
      await nc.close();
    }
    await startWorker(b);
    expect(await waitUntil(() => (status(b)?.importedTo ?? 0) >= 2)).toBe(true);
    const stored = (await dumpLog(b.env)).find((e) => e.id === stamped.id);
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(String(stored!.data.prompt)).toContain('[REDACTED:');
    const aside = readdirSync(join(syncFolder(b.paths), 'rejected')).map((name) => readFileSync(join(syncFolder(b.paths), 'rejected', name), 'utf8'));
    expect(aside).toHaveLength(1);
    expect(aside[0]).not.toContain(token);
  }, SLOW);

});
