import type { Socket } from 'node:net';
import type { EngramPaths } from '../paths.js';
import { foreignSocket } from '../socket/socket-owner.js';

/** Longest answer line read: ten memories' lines are far below it. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** A recall question on its way to the worker (the `recall` op of socket-protocol.ts). */
export interface RecallQuestion {
  /**
   * The worker's answer line (not yet checked: ask-worker-recall.ts does that), or undefined when
   * there is no worker, it broke off, or the budget ran out first. Until this is called the
   * question does not keep the process alive, so a hook that never needs the answer (a prompt
   * too short to recall anything, a payload it refused) exits as if it had not asked.
   */
  wait(): Promise<string | undefined>;
}

/**
 * Sends a recall question to the worker at `socketPath` and resolves once it is written (or
 * cannot be): the caller may then block the event loop — load a bundle, write files — while the
 * worker embeds and searches. The answer is read as it arrives; after `budgetMs` from now there
 * is none. Never rejects.
 */
export async function askRecallQuestion(paths: Pick<EngramPaths, 'socket' | 'socketDir'>, request: { text: string; project: string; session: string }, budgetMs: number): Promise<RecallQuestion> {
  const socketPath = paths.socket;
  // The prompt goes as typed: only to a socket of this user's own, in a directory of theirs.
  if (foreignSocket(paths)) return { wait: () => Promise.resolve(undefined) };
  const { connect } = await import('node:net');
  let socket: Socket;
  let settle: (line: string | undefined) => void = () => {};
  const answer = new Promise<string | undefined>((resolve) => (settle = resolve));
  let written: () => void = () => {};
  const sent = new Promise<void>((resolve) => (written = resolve));
  const chunks: Buffer[] = [];
  let bytes = 0;
  let done = false;
  const finish = (line: string | undefined) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    socket.destroy();
    written();
    settle(line);
  };
  const timer = setTimeout(() => finish(undefined), budgetMs);
  try {
    socket = connect(socketPath);
  } catch {
    clearTimeout(timer);
    return { wait: () => Promise.resolve(undefined) };
  }
  socket.on('connect', () => socket.write(`${JSON.stringify({ op: 'recall', ...request })}\n`, () => written()));
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    bytes += chunk.length;
    const all = chunks.length === 1 ? chunk : Buffer.concat(chunks);
    const newline = all.indexOf(10);
    if (newline >= 0) finish(all.toString('utf8', 0, newline));
    else if (bytes > MAX_ANSWER_BYTES) finish(undefined);
  });
  socket.on('error', () => finish(undefined));
  socket.on('close', () => finish(undefined));
  // Held open while sending, so the process waits for the write; let go after it.
  await sent;
  if (!done) {
    socket.unref();
    timer.unref();
  }
  return {
    wait() {
      if (!done) {
        socket.ref();
        timer.ref();
      }
      return answer;
    },
  };
}
