import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSpoolFile } from '../src/hooks/write-spool-file.js';
import { startNatsCluster, type NatsCluster } from './support/nats-cluster.js';
import { natsServerMissing } from './support/nats-server.js';
import { ackedSeq, converged, memoryFiles, rebuildKeepsFiles, streamMessages, syncDiagnosis, syncMachine, syncPrompt, syncStatus, startWorker } from './support/sync-machines.js';
import { useTempHomes } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();
const clusters: NatsCluster[] = [];
afterEach(async () => {
  for (const cluster of clusters.splice(0)) await cluster.cleanup();
});

/** Three servers and two workers on two cores shared by every test process. */
const SLOW = 240_000;

/**
 * Three copies of the stream; 2 s timeouts, not syncMachine's 1 s: acks of a window of 256
 * publishes copied to three servers on a loaded machine outlast 1 s, and each ack timed out is
 * a window sent again (more CPU, the test slower).
 */
const CLUSTER_MACHINE = { ENGRAM_SYNC_REPLICAS: '3', ENGRAM_SYNC_TIMEOUT_MS: '2000' };

/** The stream as the cluster sees it: its leader, its replicas, and which node runs each consumer (by name). */
async function streamCluster(urls: string[]): Promise<{ leader: string | undefined; replicas: number; consumers: Map<string, string | undefined> }> {
  const nc = await connect({ servers: urls });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info('ENGRAM');
    const consumers = new Map<string, string | undefined>();
    for await (const consumer of jsm.consumers.list('ENGRAM')) consumers.set(consumer.name, consumer.cluster?.leader);
    return { leader: info.cluster?.leader, replicas: info.config.num_replicas, consumers };
  } finally {
    await nc.close();
  }
}

/**
 * Only the stream's leader, asked of `urls`: a consumer list waits ≈ 4 s on a consumer whose node
 * is dead, and the check after the leader's death needs the stream alone.
 */
async function streamLeader(urls: string[]): Promise<string | undefined> {
  const nc = await connect({ servers: urls });
  try {
    // A 1 s request timeout: a node still catching up never answers, and the callers ask again.
    return (await (await jetstreamManager(nc, { timeout: 1_000 })).streams.info('ENGRAM')).cluster?.leader;
  } finally {
    await nc.close();
  }
}

/** An ordered consumer is renamed `<prefix>_<n>` when it resets; the prefix is the importer's. */
const prefixOf = (name: string) => name.replace(/_\d+$/, '');

describe.skipIf(natsServerMissing)(`sync through a three-node JetStream cluster${natsServerMissing ? ` (skipped: ${natsServerMissing})` : ''}`, () => {
  it('the stream engram makes keeps three replicas; kill -9 of the node B reads from, then of the stream\'s leader, mid-publish, lose nothing and store nothing twice', async () => {
    const cluster = await startNatsCluster(3);
    clusters.push(cluster);
    // Both machines know every node, as a team would configure them.
    const url = cluster.urls.join(',');
    const [a, b] = [syncMachine(home, url, CLUSTER_MACHINE), syncMachine(home, url, CLUSTER_MACHINE)];
    // B first, so the one consumer the stream has then is B's importer's.
    await startWorker(b);
    let consumerOfB: string | undefined;
    expect(await waitUntil(async () => {
      consumerOfB = [...(await streamCluster(cluster.urls).catch(() => undefined))?.consumers.keys() ?? []][0];
      return consumerOfB !== undefined;
    })).toBe(true);
    await startWorker(a);
    let written = 0;
    const write = (n: number) => {
      for (let i = 0; i < n; i++) writeSpoolFile(a.paths, syncPrompt(`prompt ${written++} about the ledger`));
    };
    writeSpoolFile(a.paths, syncPrompt('No, I told you: integration tests must hit the real database, not mocks'));
    write(600);
    expect(await waitUntil(() => ackedSeq(a) > 0 && (syncStatus(b)?.importedTo ?? 0) > 0)).toBe(true);
    const first = await streamCluster(cluster.urls);
    expect(first.replicas).toBe(3);
    // B's consumer is R1 on one node: that node dies, and B's importer must follow from another.
    const hostOfB = [...first.consumers].find(([name]) => prefixOf(name) === prefixOf(consumerOfB!))?.[1];
    expect(hostOfB).toMatch(/^n\d$/);
    await cluster.node(hostOfB!).kill('SIGKILL');
    write(300);
    const settledOnce = await converged(a, b, 901);
    if (!settledOnce) console.log(`not converged after ${hostOfB} died:\nA ${syncDiagnosis(a)}\nB ${syncDiagnosis(b)}`);
    expect(settledOnce).toBeDefined();
    await cluster.node(hostOfB!).start();
    // Then the node that orders the stream's writes dies with publishes in flight; the others elect another.
    write(300);
    expect(await waitUntil(() => ackedSeq(a) > 901)).toBe(true);
    // Asked until a node answers: the node that just came back may take the request while its
    // JetStream is still catching up, and the request then times out.
    let leader: string | undefined;
    expect(await waitUntil(async () => (leader = await streamLeader(cluster.urls).catch(() => undefined)) !== undefined, 30_000, 250)).toBe(true);
    expect(leader).toMatch(/^n\d$/);
    await cluster.node(leader!).kill('SIGKILL');
    write(300);
    writeSpoolFile(a.paths, syncPrompt('from now on deploys go through Helm'));
    const settled = await converged(a, b, 1502);
    if (!settled) console.log(`not converged after ${leader} died:\nA ${syncDiagnosis(a)}\nB ${syncDiagnosis(b)}`);
    expect(settled).toBeDefined();
    const survivors = cluster.urls.filter((_, i) => `n${i}` !== leader);
    let newLeader: string | undefined;
    expect(await waitUntil(async () => (newLeader = await streamLeader(survivors).catch(() => undefined)) !== undefined, 30_000, 250)).toBe(true);
    expect(newLeader).not.toBe(leader);
    const { a: x, b: y } = settled!;
    expect(y.ids).toEqual(x.ids);
    expect(x.count).toBe(x.ids.size);
    expect(y.count).toBe(y.ids.size);
    expect(y.events.filter((e) => e.type === 'PromptSubmitted')).toHaveLength(1502);
    expect(await streamMessages(survivors)).toBe(x.ids.size);
    expect(await waitUntil(() => JSON.stringify(memoryFiles(a)) === JSON.stringify(memoryFiles(b)), 30_000)).toBe(true);
    // Both machines side by side: the stop and rebuild of one overlap the waits of the other.
    for (const { before, after } of await Promise.all([a, b].map(rebuildKeepsFiles))) {
      expect(Object.keys(before).some((p) => /memory\/.*real-database/.test(p))).toBe(true);
      expect(after).toEqual(before);
    }
  }, SLOW);
});
