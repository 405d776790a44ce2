import { connect } from 'node:net';
import { EngramError, isEngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import { foreignSocket, foreignSocketAdvice } from './socket-owner.js';
import { anyJson, lineReader, MAX_RESPONSE_CHARS, unexpectedMessage } from './line-reader.js';
import { responseByHand } from './response-by-hand.js';
import type { Request, Response } from './socket-protocol.js';

export interface AskOptions {
  /**
   * Give up (WORKER_UNREACHABLE) when the worker has not answered at all after this long: a
   * stopped (SIGSTOP) or wedged worker still accepts connections. Default: wait as long as it takes.
   */
  answerTimeoutMs?: number;
  /** Aborting closes the connection and resolves: the caller no longer wants the answer. */
  signal?: AbortSignal;
}

/**
 * Sends one request to the running worker and hands each answer to `onResponse` until the
 * worker closes the connection. Rejects with WORKER_UNREACHABLE when no worker listens, or it
 * closes the connection without a word of answer; with WORKER_NOT_YOURS, before connecting, when
 * the socket or its directory is another user's (socket-owner.ts).
 */
export function askWorker(
  paths: EngramPaths,
  request: Request,
  onResponse: (response: Response) => void,
  options: AskOptions = {},
): Promise<void> {
  // Before a byte is sent: the request may carry a prompt, and the answer becomes output.
  const foreign = foreignSocket(paths);
  if (foreign) return Promise.reject(new EngramError('WORKER_NOT_YOURS', foreignSocketAdvice(foreign, paths)));
  return new Promise((resolve, reject) => {
    const socket = connect(paths.socket);
    let connected = false;
    let answered = false;
    let failed: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    if (options.answerTimeoutMs !== undefined) {
      timer = setTimeout(() => {
        if (answered) return;
        failed = new EngramError('WORKER_UNREACHABLE', `the worker did not answer within ${options.answerTimeoutMs} ms`);
        socket.destroy();
      }, options.answerTimeoutMs);
    }
    const onAbort = () => socket.destroy();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    // Each line is checked by hand where it can be (response-by-hand.ts) and by responseSchema,
    // loaded only then, where it cannot: so zod costs nothing to a conversation that stays in
    // shape, and a line out of shape still gets the schema's verdict. Once a line waits for
    // that verdict, every line after it (a bad one's report included) waits its turn.
    let judged: Promise<void> | undefined;
    const take = (response: Response) => {
      answered = true;
      if (!options.signal?.aborted) onResponse(response);
    };
    const bad = (reason: string) => {
      failed = new EngramError('WORKER_PROTOCOL', `the worker answered something unexpected: ${reason}`);
    };
    const after = (step: () => void | Promise<void>) => {
      judged = (judged ?? Promise.resolve()).then(step);
      // Its failure (the schema's module could not load) is the close's to report, not unhandled before it.
      judged.catch(() => undefined);
    };
    const inTurn = (step: () => void) => (judged ? after(step) : step());
    const onJson = (json: unknown) => {
      const response = responseByHand(json);
      if (response) return inTurn(() => take(response));
      after(async () => {
        const { responseSchema } = await import('./socket-protocol.js');
        const parsed = responseSchema.safeParse(json);
        if (parsed.success) take(parsed.data);
        else bad(unexpectedMessage(parsed.error));
      });
    };
    socket.on('data', lineReader(anyJson, onJson, (reason) => inTurn(() => bad(reason)), MAX_RESPONSE_CHARS));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected) failed = new EngramError('WORKER_UNREACHABLE', 'no worker is listening', { cause: err });
      else failed ??= err;
    });
    const settle = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) resolve();
      // Closed before a word of answer: a worker that is stopping (or handing over) shuts
      // connections it will not serve, so nothing ran; the caller may go elsewhere.
      else if (!answered && !isEngramError(failed)) reject(new EngramError('WORKER_UNREACHABLE', 'the worker closed the connection without answering', { cause: failed }));
      else if (failed) reject(failed);
      else resolve();
    };
    socket.on('close', () => {
      // The schema's module failing to load is engram's fault, said with a code like every other.
      const unjudged = (err: unknown) => (clearTimeout(timer), reject(new EngramError('WORKER_PROTOCOL', 'a line of the worker\'s answer could not be checked: its schema did not load', { cause: err })));
      if (judged) judged.then(settle, unjudged);
      else settle();
    });
  });
}

export interface Pong {
  pid: number;
  head: number;
  startedAt: string;
  /** Undefined for a worker from before build ids. */
  build: string | undefined;
}

/** The running worker's pid, build and log head, or undefined when none answers within `timeoutMs` (default 5 s). */
export async function pingWorker(paths: EngramPaths, timeoutMs = 5000): Promise<Pong | undefined> {
  let pong: Pong | undefined;
  try {
    await askWorker(
      paths,
      { op: 'ping' },
      (response) => {
        if (response.t === 'pong') pong = { pid: response.pid, head: response.head, startedAt: response.startedAt, build: response.build };
      },
      { answerTimeoutMs: timeoutMs },
    );
  } catch {
    return undefined;
  }
  return pong;
}
