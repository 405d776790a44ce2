import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { describeError, isEngramError } from '../../errors.js';
import type { EngineCommand, CommandOutput } from '../commands/command.js';
import type { Engine } from '../engine/engine.js';
import { lineReader, requestSchema, type Request, type Response } from './socket-protocol.js';

export interface SocketServerOptions {
  path: string;
  engine: Engine;
  commands: Map<string, EngineCommand<unknown>>;
  startedAt: string;
  /** Every request counts as activity, so the worker does not idle out under a long command. */
  onActivity(): void;
  onStop(): void;
  log(line: string): void;
}

/** The worker's end of the local socket: one request per connection, answers streamed back. */
export function startSocketServer(options: SocketServerOptions): Promise<Server> {
  // Only the log's holder gets here, so a socket file left behind is a dead worker's.
  try {
    unlinkSync(options.path);
  } catch {
    // none there
  }
  const server = createServer((socket) => serve(socket, options));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.path, () => {
      server.off('error', reject);
      chmodSync(options.path, 0o600);
      resolve(server);
    });
  });
}

function serve(socket: Socket, options: SocketServerOptions): void {
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
  socket.on(
    'data',
    lineReader(
      requestSchema,
      (request) => {
        if (handled) return;
        handled = true;
        // Asking whether the worker is there is not work: it must not keep an idle worker alive.
        if (request.op !== 'ping' && !(request.op === 'command' && request.name === 'status')) options.onActivity();
        void handle(request, send, options)
          .catch((err) => options.log(`request failed: ${describeError(err)}`))
          .finally(() => socket.end());
      },
      (reason) => {
        options.log(`bad request: ${reason}`);
        socket.destroy();
      },
    ),
  );
}

async function handle(request: Request, send: (message: Response) => Promise<void>, options: SocketServerOptions): Promise<void> {
  if (request.op === 'ping') {
    await send({ t: 'pong', pid: process.pid, head: options.engine.log.head, startedAt: options.startedAt });
    return;
  }
  if (request.op === 'stop') {
    await send({ t: 'exit', code: 0 });
    options.onStop();
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
    progress: (done, total) => {
      if (request.tty) void send({ t: 'progress', done, total }).catch(() => undefined);
    },
  };
  let code: number;
  try {
    const args = command.args.parse(request.args);
    code = await command.run(options.engine, args, output);
  } catch (err) {
    output.err(`${describeError(err)}\n`);
    code = isEngramError(err, 'USAGE') ? 2 : 1;
  }
  await send({ t: 'exit', code });
}
