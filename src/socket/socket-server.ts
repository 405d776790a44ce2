import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { BUILD_ID } from '../build-id.js';
import { isOlderBuild } from '../compare-builds.js';
import { describeError, describeForUser, isEngramError } from '../errors.js';
import { commandArgs, type EngineCommand, type CommandOutput } from '../commands/command.js';
import type { ComposedEngine } from '../composition/open-engine.js';
import { memoryProvenance } from '../commands/memory-provenance.js';
import type { SearchHit } from '../commands/search-memories.js';
import { MAX_LEFT_OUT, MAX_RECALLED_PER_PROMPT } from '../events/recall-events.js';
import type { RecallResult } from '../recall/recall.js';
import { lineReader, MAX_REQUEST_CHARS } from './line-reader.js';
import { requestSchema, type Request, type Response } from './socket-protocol.js';

export interface SocketServerOptions {
  path: string;
  engine: ComposedEngine;
  commands: Map<string, EngineCommand<unknown>>;
  startedAt: string;
  /** This worker's build, sent in every pong and compared on a hand-over. Default BUILD_ID. */
  build?: string;
  /**
   * A connection that has sent no request after this long is closed, so a client that hangs
   * (or a stray `nc`) holds nothing. Default 30,000 ms.
   */
  requestTimeoutMs?: number;
  /** Answers a `recall` request (the prompt hook's): the memories to put in its context. Default: none, an empty answer. */
  recall?(request: Extract<Request, { op: 'recall' }>): Promise<Pick<RecallResult, 'memories' | 'leftOut'>>;
  /** Starts the web viewer (or finds it running) and gives its URL (`engram ui`). Default: refused. */
  ui?(request: Extract<Request, { op: 'ui' }>): Promise<string>;
  /** Answers a `search` request (the MCP server's): ranked memories with their rows. Default: none, an error. */
  search?(request: Extract<Request, { op: 'search' }>): Promise<{ hits: SearchHit[]; problems: string[] }>;
  /** Every request counts as activity, so the worker does not idle out under a long command. */
  onActivity(): void;
  /** `why` is for the worker's log. */
  onStop(why: string): void;
  log(line: string): void;
}

export interface SocketServer {
  /**
   * Stops listening and ends every connection: idle ones at once, ones whose request is still
   * being answered once they finish or after `graceMs` (a paused `engram log dump | less` would
   * otherwise hold the worker forever), then waits for their handlers to return, so the engine
   * is free to close.
   */
  close(graceMs: number): Promise<void>;
}

/** The worker's end of the local socket: one request per connection, answers streamed back. */
export function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  // Only the log's holder gets here, so a socket file left behind is a dead worker's.
  try {
    unlinkSync(options.path);
  } catch {
    // none there
  }
  const idle = new Set<Socket>();
  const busy = new Map<Socket, Promise<void>>();
  let closing = false;
  const server = createServer((socket) => {
    if (closing) return socket.destroy();
    idle.add(socket);
    socket.once('close', () => idle.delete(socket));
    serve(socket, options, (handled) => {
      idle.delete(socket);
      busy.set(socket, handled);
      void handled.finally(() => busy.delete(socket));
    });
  });
  const handle: SocketServer = {
    async close(graceMs) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of idle) socket.destroy();
      const handlers = () => Promise.all([...busy.values()]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([handlers(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      // Past the grace period a reader that stopped reading is cut off; its handler then fails
      // on its next write and returns.
      for (const socket of busy.keys()) socket.destroy();
      for (const socket of idle) socket.destroy();
      await handlers();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.path, () => {
      server.off('error', reject);
      chmodSync(options.path, 0o600);
      resolve(handle);
    });
  });
}

function serve(socket: Socket, options: SocketServerOptions, onRequest: (handled: Promise<void>) => void): void {
  let handled = false;
  const send = (message: Response): Promise<void> =>
    new Promise((resolve, reject) => {
      if (socket.destroyed) return reject(new Error('the client went away'));
      if (socket.write(`${JSON.stringify(message)}\n`)) return resolve();
      const onDrain = () => (socket.off('close', onClose), resolve());
      const onClose = () => (socket.off('drain', onDrain), reject(new Error('the client went away')));
      socket.once('drain', onDrain);
      socket.once('close', onClose);
    });
  socket.on('error', () => socket.destroy());
  socket.setTimeout(options.requestTimeoutMs ?? 30_000, () => {
    if (!handled) socket.destroy();
  });
  socket.on(
    'data',
    lineReader(
      requestSchema,
      (request) => {
        if (handled) return;
        handled = true;
        socket.setTimeout(0);
        // Asking whether the worker is there is not work: it must not keep an idle worker alive.
        if (request.op !== 'ping' && !(request.op === 'command' && request.name === 'status')) options.onActivity();
        onRequest(
          handle(request, send, options)
            .catch((err) => options.log(`request failed: ${describeError(err)}`))
            .finally(() => socket.end()),
        );
      },
      (reason) => {
        options.log(`bad request: ${reason}`);
        socket.destroy();
      },
      MAX_REQUEST_CHARS,
    ),
  );
}

async function handle(request: Request, send: (message: Response) => Promise<void>, options: SocketServerOptions): Promise<void> {
  const build = options.build ?? BUILD_ID;
  if (request.op === 'ping') {
    await send({ t: 'pong', pid: process.pid, head: options.engine.log.head, startedAt: options.startedAt, build });
    return;
  }
  if (request.op === 'stop') {
    const newer = request.ifOlderThan;
    if (newer !== undefined && !isOlderBuild(build, newer)) {
      await send({ t: 'err', text: `this worker's build ${build} is not older than ${newer}; it keeps running\n` });
      await send({ t: 'exit', code: 1 });
      return;
    }
    // Stop even if the client has already gone: it asked, and a hand-over counts on it.
    await send({ t: 'exit', code: 0 }).catch(() => undefined);
    options.onStop(newer === undefined ? 'asked to stop' : `handing over to build ${newer}`);
    return;
  }
  if (request.op === 'recall') {
    const { memories, leftOut } = options.recall ? await options.recall(request) : { memories: [], leftOut: [] };
    await send({
      t: 'recalled',
      memories: memories.slice(0, MAX_RECALLED_PER_PROMPT).map(({ id, file, name, description, score, signals }) => ({ id, file, name, description, score, signals: [...signals] })),
      leftOut: leftOut.slice(0, MAX_LEFT_OUT).map(({ id, score, signals, why }) => ({ id, score, signals: [...signals], why })),
    });
    return;
  }
  if (request.op === 'ui') {
    if (!options.ui) {
      await send({ t: 'err', text: 'this worker does not serve the viewer\n' });
      await send({ t: 'exit', code: 1 });
      return;
    }
    try {
      await send({ t: 'ui', url: await options.ui(request) });
      await send({ t: 'exit', code: 0 });
    } catch (err) {
      await send({ t: 'err', text: `${describeError(err)}\n` });
      await send({ t: 'exit', code: 1 });
    }
    return;
  }
  if (request.op === 'search') {
    if (!options.search) {
      await send({ t: 'err', text: 'this worker does not search\n' });
      await send({ t: 'exit', code: 1 });
      return;
    }
    try {
      const found = await options.search(request);
      await send({ t: 'found', hits: found.hits, problems: found.problems });
      await send({ t: 'exit', code: 0 });
    } catch (err) {
      await send({ t: 'err', text: `${describeError(err)}\n` });
      await send({ t: 'exit', code: 1 });
    }
    return;
  }
  if (request.op === 'provenance') {
    try {
      const provenance = await memoryProvenance(options.engine, request.query, { project: request.project, limit: request.limit ?? 500 });
      await send({ t: 'provenance', provenance });
      await send({ t: 'exit', code: 0 });
    } catch (err) {
      await send({ t: 'err', text: `engram: ${describeForUser(err)}\n` });
      await send({ t: 'exit', code: isEngramError(err, 'USAGE') ? 2 : 1 });
    }
    return;
  }
  const command = options.commands.get(request.name);
  if (!command) {
    await send({ t: 'err', text: `unknown command ${request.name}\n` });
    await send({ t: 'exit', code: 2 });
    return;
  }
  const output: CommandOutput = {
    out: (text) => send({ t: 'out', text }),
    err: (text) => void send({ t: 'err', text }).catch(() => undefined),
    progress: (done, total, unit) => {
      // A command that reports progress is work under way: a long one (a backfill of months, a
      // rebuild) must not find the worker stopping for idleness under it.
      options.onActivity();
      if (request.tty) void send({ t: 'progress', done, total, ...(unit ? { unit } : {}) }).catch(() => undefined);
    },
  };
  let code: number;
  try {
    const args = commandArgs(command, request.args);
    code = await command.run(options.engine, args, output);
  } catch (err) {
    // As the CLI says it when the command runs in its own process (main.ts).
    output.err(`engram: ${describeForUser(err)}\n`);
    code = isEngramError(err, 'USAGE') ? 2 : 1;
  }
  await send({ t: 'exit', code });
}
