import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort, startNatsServer, type NatsServer } from './nats-server.js';
import { waitUntil } from './wait-until.js';

export interface NatsCluster {
  /** Every node's client URL, as a client lists them to reach whichever runs. */
  urls: string[];
  /** The nodes, named `n0`, `n1`, ... (their JetStream server names). */
  nodes: NatsServer[];
  /** The node called `name`. */
  node(name: string): NatsServer;
  /** Stops every node (a stopped one is woken first) and removes their stores. */
  cleanup(): Promise<void>;
}

/**
 * A real JetStream cluster of `size` `nats-server` processes on loopback: each with its own client
 * port, cluster port and store, routes to all the others, one cluster name. Resolves once
 * JetStream answers (its meta group elected a leader), so a stream with `size` replicas can be made.
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const clientPorts: number[] = [];
  const clusterPorts: number[] = [];
  for (let i = 0; i < size; i++) {
    clientPorts.push(await freePort());
    clusterPorts.push(await freePort());
  }
  const routes = clusterPorts.map((p) => `nats://127.0.0.1:${p}`);
  const nodes: NatsServer[] = [];
  const cluster: NatsCluster = {
    urls: clientPorts.map((p) => `nats://127.0.0.1:${p}`),
    nodes,
    node(name) {
      const at = Number(name.replace(/^n/, ''));
      if (!nodes[at]) throw new Error(`no node ${name}`);
      return nodes[at];
    },
    async cleanup() {
      for (const node of nodes) {
        if (node.pid !== undefined) {
          try {
            process.kill(node.pid, 'SIGCONT');
          } catch {
            // already gone
          }
        }
        await node.cleanup();
      }
    },
  };
  try {
    for (let i = 0; i < size; i++) {
      nodes.push(await startNatsServer({
        port: clientPorts[i],
        args: ['--server_name', `n${i}`, '--cluster_name', 'engram-test', '--cluster', routes[i]!, '--routes', routes.filter((_, j) => j !== i).join(',')],
      }));
    }
    const ready = await waitUntil(async () => {
      const nc = await connect({ servers: cluster.urls, timeout: 1000 }).catch(() => undefined);
      if (!nc) return false;
      try {
        const jsm = await jetstreamManager(nc, { timeout: 2000 });
        // Ready when a stream of `size` replicas can be made: every node joined, a meta leader elected.
        await jsm.streams.add({ name: 'READY_PROBE', subjects: ['ready.probe'], num_replicas: size });
        await jsm.streams.delete('READY_PROBE');
        return true;
      } catch {
        return false;
      } finally {
        await nc.close().catch(() => undefined);
      }
    }, 60_000);
    if (!ready) throw new Error('the JetStream cluster did not elect a meta leader in 60 s');
    return cluster;
  } catch (err) {
    await cluster.cleanup();
    throw err;
  }
}
