import type { EngramPaths } from '../paths.js';
import { foreignSocket } from '../socket/socket-owner.js';

/**
 * Asks the running worker to hand over to build `mine`: it stops taking work, finishes what it
 * is doing, closes the log and exits, so that a worker of the newer build can open the log.
 * Resolves true once the worker has agreed, false when it refused (it is not older than `mine`:
 * the pid file we read was stale) or could not be reached within `timeoutMs`.
 *
 * The request is `stop` with `ifOlderThan`: workers from before hand-overs know `stop` and ignore
 * the extra field, so they step down too. No zod here: hooks call this, and only node built-ins
 * may load on their path (the reply is one or two short lines of our own making).
 */
export async function requestHandOver(paths: EngramPaths, mine: string, timeoutMs = 2000): Promise<boolean> {
  if (foreignSocket(paths)) return false;
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(paths.socket);
    let text = '';
    let agreed: boolean | undefined;
    const done = () => {
      clearTimeout(timer);
      // Closing our end at once matters: an old worker's stop waits for every open connection.
      socket.destroy();
      resolve(agreed === true);
    };
    const timer = setTimeout(done, timeoutMs);
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify({ op: 'stop', ifOlderThan: mine })}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n')) {
        const line = text.slice(0, newline);
        text = text.slice(newline + 1);
        try {
          const message = JSON.parse(line) as { t?: unknown; code?: unknown };
          if (message.t === 'exit') agreed = message.code === 0;
        } catch {
          agreed = false;
        }
        if (agreed !== undefined) return done();
      }
      if (text.length > 64 * 1024) done();
    });
    socket.once('error', done);
    socket.once('close', done);
  });
}
