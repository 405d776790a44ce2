import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { resolvePaths } from '../src/paths.js';
import { syntheticEvents } from './synthetic-events.js';

export interface SyncBenchResult {
  /** Correction typed on A (its prompt hook started) → the memory file on B, and on A itself. */
  lag: { corrections: number; medianMs: number; p95Ms: number; localMedianMs: number; localP95Ms: number };
  /** A backlog taken in by a worker starting: from the stream (B) and from its own spool (local). */
  catchUp: { events: number; rounds: number; importPerS: number; importToLogPerS: number; localPerS: number; localToLogPerS: number; bytesPerEvent: number };
  /** The hooks' wall time with sync on (worker connected) vs off, each against the other, interleaved. */
  hooks: { runs: number; onMs: number; offMs: number; postToolOnMs: number; postToolOffMs: number };
  /** A connected worker idle for `seconds` vs one without sync: CPU ms, and the messages its connection sent and got (the server's connz). */
  idle: { seconds: number; onCpuMs: number | undefined; offCpuMs: number | undefined; messagesIn: number | undefined; messagesOut: number | undefined; connections: number | undefined };
  /** What A's worker used while forwarding the corrections (CPU ms of its process over the lag rounds). */
  forwarderCpuMs: number | undefined;
}

const IDLE_MS = 10_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The sync's costs, measured with real processes: a `nats-server -js` on a free loopback port and
 * real workers in their own homes. Returns undefined (and says why) when nats-server is missing.
 */
export async function syncBench(options: { repo: string; dir: string; corrections: number; backlog: number; rounds: number; hookRuns: number }): Promise<SyncBenchResult | undefined> {
  if (spawnSync('nats-server', ['--version']).status !== 0) {
    console.error('bench sync: skipped, nats-server is not installed (apt-get install nats-server)');
    return undefined;
  }
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const hooks = join(options.repo, 'dist', 'hooks');
  const server = await startServer(options.dir);
  const homes: Array<NodeJS.ProcessEnv> = [];
  const home = (name: string, sync: Record<string, string> | undefined): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ENGRAM_HOME: join(options.dir, name, 'home'),
      CLAUDE_CONFIG_DIR: join(options.dir, name, 'claude'),
      ENGRAM_EMBEDDER: 'off',
      ENGRAM_WORKER_AUTOSTART: '0',
      ENGRAM_WORKER_IDLE_MS: '600000',
      ENGRAM_DISTILLER: 'off',
      ENGRAM_LLM_CMD: '',
      ENGRAM_SYNC_SCOPE: sync ? 'personal' : 'off',
      ENGRAM_SYNC_URL: sync ? server.url : '',
      ...sync,
    };
    mkdirSync(env.CLAUDE_CONFIG_DIR!, { recursive: true });
    homes.push(env);
    return env;
  };
  const cliRun = (args: string[], env: NodeJS.ProcessEnv) => {
    const result = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`engram ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
    return result.stdout;
  };
  const hook = (name: string, env: NodeJS.ProcessEnv, payload: object) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [join(hooks, `${name}.cjs`)], { env, input: JSON.stringify(payload), stdio: ['pipe', 'ignore', 'ignore'] });
    if (result.status !== 0) throw new Error(`${name} hook exited ${result.status}`);
    return performance.now() - started;
  };
  try {
    // Replication lag: A and B, one person's two machines, both workers running and connected.
    const a = home('lag-a', { ENGRAM_SYNC_USER: 'lag' });
    const b = home('lag-b', { ENGRAM_SYNC_USER: 'lag' });
    cliRun(['worker', '--detach'], a);
    cliRun(['worker', '--detach'], b);
    await waitFor(() => connected(b) && connected(a), 60_000, 'the workers to connect');
    const remote: number[] = [];
    const local: number[] = [];
    const cpuBefore = workerCpuMs(a);
    for (let i = 0; i < options.corrections; i++) {
      // Mostly words of its own: a lesson too like an earlier one reinforces that memory instead (Jaccard ≥ 0.6).
      const token = `zq${i.toString(36)}x${Date.now().toString(36)}`;
      const words = ['ledger', 'billing', 'search', 'gateway', 'queue', 'cache'].map((word) => `${word}${token}`).join(' ');
      const started = performance.now();
      hook('user-prompt-submit', a, {
        session_id: 'bench-lag', cwd: '/home/dev/src/bench-sync', hook_event_name: 'UserPromptSubmit',
        prompt: `No, I told you already: from now on ${words} deploy through Helm, never kubectl.`,
      });
      let seenLocal: number | undefined;
      await waitFor(() => {
        seenLocal ??= memoryHolds(a, token) ? performance.now() - started : undefined;
        return memoryHolds(b, token);
      }, 60_000, `correction ${i} on B`);
      remote.push(performance.now() - started);
      await waitFor(() => (seenLocal ??= memoryHolds(a, token) ? performance.now() - started : undefined) !== undefined, 60_000, `correction ${i} on A`);
      local.push(seenLocal!);
    }
    const cpuAfter = workerCpuMs(a);

    // Hooks with sync on (A, its worker connected) vs off (a home without sync, its worker running).
    const off = home('hooks-off', undefined);
    cliRun(['worker', '--detach'], off);
    const on: number[] = [];
    const offTimes: number[] = [];
    const toolOn: number[] = [];
    const toolOff: number[] = [];
    const prompt = (i: number) => ({ session_id: `bench-hooks-${i}`, cwd: '/home/dev/src/bench-hooks', hook_event_name: 'UserPromptSubmit', prompt: `why does the payments test ${i} fail on CI but not locally?` });
    const tool = (i: number) => ({ session_id: `bench-hooks-${i}`, cwd: '/home/dev/src/bench-hooks', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok', stderr: '' }, tool_use_id: `toolu_${i}` });
    for (let i = 0; i < options.hookRuns; i++) {
      on.push(hook('user-prompt-submit', a, prompt(i)));
      offTimes.push(hook('user-prompt-submit', off, prompt(i)));
      toolOff.push(hook('post-tool-use', off, tool(i)));
      toolOn.push(hook('post-tool-use', a, tool(i)));
    }
    // Idle: what a connected worker costs with nothing to send or take in, against one without sync.
    await sleep(2000);
    const idleStart = { on: workerCpuMs(a), off: workerCpuMs(off), msgs: await clientMessages(server.monitor, workerPid(a)) };
    await sleep(IDLE_MS);
    const idleEnd = { on: workerCpuMs(a), off: workerCpuMs(off), msgs: await clientMessages(server.monitor, workerPid(a)) };
    const diff = (x: number | undefined, y: number | undefined) => (x === undefined || y === undefined ? undefined : y - x);
    const idle = {
      seconds: IDLE_MS / 1000,
      onCpuMs: diff(idleStart.on, idleEnd.on),
      offCpuMs: diff(idleStart.off, idleEnd.off),
      messagesIn: diff(idleStart.msgs?.in, idleEnd.msgs?.in),
      messagesOut: diff(idleStart.msgs?.out, idleEnd.msgs?.out),
      connections: idleEnd.msgs?.connections,
    };
    for (const env of [a, b, off]) cliRun(['worker', 'stop'], env);

    // Catch-up: the same backlog taken in by a worker starting, from the stream (a machine that was
    // away) and from its own spool (local ingest), alternately; each until the log holds it all,
    // then until every projection folded it (`worker --drain` waits for the running worker).
    const events = syntheticEvents({ sessions: Math.ceil(options.backlog / 100), eventsPerSession: 100, seed: 23 }).slice(0, options.backlog);
    const bodies = events.map((event) => JSON.stringify(event));
    const bytesPerEvent = bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0) / bodies.length;
    const importMs: number[] = [];
    const importLogMs: number[] = [];
    const localMs: number[] = [];
    const localLogMs: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const user = `catchup${round}`;
      const lastSeq = await publishBacklog(server.url, `engram.personal.${user}`, bodies);
      const away = home(`catchup-${round}`, { ENGRAM_SYNC_USER: user });
      let started = performance.now();
      cliRun(['worker', '--detach'], away);
      await waitFor(() => (syncStatusOf(away)?.importedTo ?? 0) >= lastSeq, 300_000, 'the backlog imported');
      importLogMs.push(performance.now() - started);
      cliRun(['worker', '--drain'], away);
      importMs.push(performance.now() - started);
      cliRun(['worker', 'stop'], away);

      const here = home(`local-${round}`, undefined);
      const paths = resolvePaths(here);
      mkdirSync(paths.spoolNew, { recursive: true });
      bodies.forEach((body, i) => writeFileSync(join(paths.spoolNew, `${String(1e15 + i)}-1-00000000.json`), body));
      started = performance.now();
      cliRun(['worker', '--detach'], here);
      await waitFor(() => readdirSync(paths.spoolNew).length === 0, 300_000, 'the spool ingested');
      localLogMs.push(performance.now() - started);
      cliRun(['worker', '--drain'], here);
      localMs.push(performance.now() - started);
      cliRun(['worker', 'stop'], here);
    }
    const perS = (ms: number[]) => (events.length / median(ms)) * 1000;
    return {
      lag: { corrections: options.corrections, medianMs: median(remote), p95Ms: p95(remote), localMedianMs: median(local), localP95Ms: p95(local) },
      catchUp: { events: events.length, rounds: options.rounds, importPerS: perS(importMs), importToLogPerS: perS(importLogMs), localPerS: perS(localMs), localToLogPerS: perS(localLogMs), bytesPerEvent },
      hooks: { runs: options.hookRuns, onMs: median(on), offMs: median(offTimes), postToolOnMs: median(toolOn), postToolOffMs: median(toolOff) },
      idle,
      forwarderCpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    };
  } finally {
    for (const env of homes) spawnSync(process.execPath, [cli, 'worker', 'stop'], { env, stdio: 'ignore' });
    await server.stop();
  }
}

function syncStatusOf(env: NodeJS.ProcessEnv): { connected: boolean; importedTo: number } | undefined {
  try {
    return JSON.parse(readFileSync(join(env.ENGRAM_HOME!, 'sync', 'status.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function connected(env: NodeJS.ProcessEnv): boolean {
  return syncStatusOf(env)?.connected === true;
}

/** Whether a memory file of this home holds `token` (every project's memory directory). */
function memoryHolds(env: NodeJS.ProcessEnv, token: string): boolean {
  const projects = join(env.CLAUDE_CONFIG_DIR!, 'projects');
  if (!existsSync(projects)) return false;
  for (const project of readdirSync(projects)) {
    const memory = join(projects, project, 'memory');
    let names: string[];
    try {
      names = readdirSync(memory);
    } catch {
      continue;
    }
    for (const name of names) {
      // The memory's own file, not the index that names it.
      if (!name.endsWith('.md') || name === 'MEMORY.md') continue;
      try {
        const path = join(memory, name);
        if (statSync(path).isFile() && readFileSync(path, 'utf8').includes(token)) return true;
      } catch {
        // renamed under us: the next poll reads it
      }
    }
  }
  return false;
}

/** The pid of the home's running worker, from its pid file (`<pid>\n<build>\n`). */
function workerPid(env: NodeJS.ProcessEnv): number | undefined {
  try {
    return Number(readFileSync(resolvePaths(env).pidFile, 'utf8').split('\n')[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** CPU (user + system) of the home's worker so far, in ms, from /proc; undefined elsewhere. */
function workerCpuMs(env: NodeJS.ProcessEnv): number | undefined {
  const pid = workerPid(env);
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Publishes the backlog on `subject` as another machine's forwarder would, without a message id
 * (each round publishes the same events, which the stream's duplicate window would drop), and
 * returns the stream seq of the last.
 */
async function publishBacklog(url: string, subject: string, bodies: readonly string[]): Promise<number> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'ENGRAM', subjects: ['engram.>'] }).catch(() => undefined);
    const js = jsm.jetstream();
    let last = 0;
    for (let i = 0; i < bodies.length; i += 256) {
      const acks = await Promise.all(bodies.slice(i, i + 256).map((body) => js.publish(subject, body)));
      last = Math.max(last, ...acks.map((ack) => ack.seq));
    }
    return last;
  } finally {
    await nc.close();
  }
}

async function waitFor(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`bench sync: gave up waiting for ${what}`);
    await sleep(10);
  }
}

function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The messages the worker `pid`'s connection sent to the server and got from it, and how many connections the server holds. */
async function clientMessages(monitor: number, pid: number | undefined): Promise<{ in: number; out: number; connections: number } | undefined> {
  try {
    const connz = (await (await fetch(`http://127.0.0.1:${monitor}/connz`)).json()) as { num_connections: number; connections: Array<{ name?: string; in_msgs: number; out_msgs: number }> };
    const mine = connz.connections.find((c) => c.name === `engram ${pid}`);
    return mine ? { in: mine.in_msgs, out: mine.out_msgs, connections: connz.num_connections } : undefined;
  } catch {
    return undefined;
  }
}

async function startServer(dir: string): Promise<{ url: string; monitor: number; stop(): Promise<void> }> {
  const port = await freePort();
  const monitor = await freePort();
  const store = join(dir, 'nats');
  mkdirSync(store, { recursive: true });
  const child: ChildProcess = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-m', String(monitor), '-sd', store], { stdio: 'ignore' });
  const accepts = () => new Promise<boolean>((resolve) => {
    const socket = connectTcp(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  const deadline = Date.now() + 15_000;
  while (!(await accepts())) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('bench sync: nats-server did not start');
    await sleep(50);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    monitor,
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
  };
}
