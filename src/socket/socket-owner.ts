import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs';
import type { EngramPaths } from '../paths.js';

// node:fs only: hooks load this on every prompt (recall, hand-over, liveness probes).

/**
 * Why the worker's socket at `paths.socket` must not be used, or undefined when it may: its
 * directory and the socket itself are this user's (or not there yet: then nobody listens, and
 * connecting fails as it would). Whoever owns either could be listening in the worker's place —
 * reading every command, MCP query and prompt sent, and answering recall with text of their own —
 * so every client asks this before connecting, and refuses. `lstat`: a symlink is not followed to
 * something that looks right.
 */
export function foreignSocket(paths: Pick<EngramPaths, 'socket' | 'socketDir'>): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined; // no uids here (Windows)
  const dir = statOrUndefined(paths.socketDir);
  if (!dir) return undefined;
  if (!dir.isDirectory()) return `${paths.socketDir} is not a directory`;
  if (dir.uid !== uid) return `${paths.socketDir} belongs to uid ${dir.uid}, not to you (uid ${uid})`;
  const socket = statOrUndefined(paths.socket);
  if (!socket) return undefined;
  if (!socket.isSocket()) return `${paths.socket} is not a socket`;
  if (socket.uid !== uid) return `${paths.socket} belongs to uid ${socket.uid}, not to you (uid ${uid})`;
  return undefined;
}

/** What to tell the user who finds their socket's place taken. */
export function foreignSocketAdvice(why: string, paths: Pick<EngramPaths, 'socketDir'>): string {
  return `engram will not talk to a worker it cannot trust: ${why}. Someone else may be listening there; remove ${paths.socketDir} (or set XDG_RUNTIME_DIR to a directory of your own, or a shorter ENGRAM_HOME) and start again`;
}

/**
 * Makes the socket's directory ready for the worker, or says why it cannot be used. `home` is made
 * 0700 (it holds prompts); a directory outside it is created 0700 in one step (the mode is given
 * to mkdir, so there is no moment at which it is open to others) and must then be a real directory
 * of this user's with no access for anyone else: one made by someone else first is refused, never
 * adopted.
 */
export function prepareSocketDir(paths: Pick<EngramPaths, 'home' | 'socketDir'>): string | undefined {
  const uid = process.getuid?.();
  const inHome = paths.socketDir === paths.home;
  try {
    mkdirSync(paths.socketDir, { mode: 0o700, recursive: inHome });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return `${paths.socketDir} cannot be created: ${(err as Error).message}`;
  }
  if (uid === undefined) return undefined;
  const dir = statOrUndefined(paths.socketDir);
  if (!dir || !dir.isDirectory()) return `${paths.socketDir} is not a directory`;
  if (dir.uid !== uid) return `${paths.socketDir} belongs to uid ${dir.uid}, not to you (uid ${uid})`;
  // Our own, but open: an ENGRAM_HOME from before this rule. Whatever another user may have put
  // in it meanwhile is checked by its own owner (the socket is replaced on listening).
  if ((dir.mode & 0o077) !== 0) chmodSync(paths.socketDir, 0o700);
  return undefined;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
