import { connect } from 'node:net';
import { EngramError } from '../../errors.js';
import type { EngramPaths } from '../../paths.js';
import { lineReader, responseSchema, type Request, type Response } from './socket-protocol.js';

/**
 * Sends one request to the running worker and hands each answer to `onResponse` until the
 * worker closes the connection. Rejects with WORKER_UNREACHABLE when no worker listens.
 */
export function askWorker(paths: EngramPaths, request: Request, onResponse: (response: Response) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(paths.socket);
    let connected = false;
    let failed: Error | undefined;
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on(
      'data',
      lineReader(responseSchema, onResponse, (reason) => {
        failed = new EngramError('WORKER_PROTOCOL', `the worker answered something unexpected: ${reason}`);
      }),
    );
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected) reject(new EngramError('WORKER_UNREACHABLE', 'no worker is listening', { cause: err }));
      else failed = err;
    });
    socket.on('close', () => (failed ? reject(failed) : resolve()));
  });
}

export interface Pong {
  pid: number;
  head: number;
  startedAt: string;
}

/** The running worker's pid and log head, or undefined when none answers. */
export async function pingWorker(paths: EngramPaths): Promise<Pong | undefined> {
  let pong: Pong | undefined;
  try {
    await askWorker(paths, { op: 'ping' }, (response) => {
      if (response.t === 'pong') pong = { pid: response.pid, head: response.head, startedAt: response.startedAt };
    });
  } catch {
    return undefined;
  }
  return pong;
}
