import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why tests that need a NATS server skip here, or undefined when `nats-server` runs. */
export const natsServerMissing: string | undefined = (() => {
  const probe = spawnSync('nats-server', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : 'nats-server is not installed (apt-get install nats-server; .ci/run installs it)';
})();

export interface NatsServer {
  url: string;
  port: number;
  /** Where JetStream keeps the stream: kept across kill and start, so a restart finds it. */
  storeDir: string;
  readonly pid: number | undefined;
  /** Sends a signal (SIGKILL: the crash tests) and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and removes its store. */
  cleanup(): Promise<void>;
}

/** A free loopback port: one the kernel just gave out and took back. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A real `nats-server -js` on a free loopback port (or `port`), with its own store directory. */
export async function startNatsServer(port?: number): Promise<NatsServer> {
  port ??= await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'engram-nats-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: 'ignore' });
    const deadline = Date.now() + 15_000;
    while (!(await accepts(port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nats-server did not start on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await gone;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    get pid() {
      return child?.pid;
    },
    kill,
    start,
    async cleanup() {
      await kill('SIGKILL');
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
