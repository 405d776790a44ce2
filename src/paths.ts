import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Where engram keeps its own state and where Claude Code reads memories. */
export interface EngramPaths {
  /** `ENGRAM_HOME`; default `~/.engram`. */
  home: string;
  spoolTmp: string;
  spoolNew: string;
  spoolRejected: string;
  /** Empty markers of hook events that could not be written (hooks/lost-marker.ts). */
  spoolLost: string;
  /** The LevelDB log: only the worker (or a CLI command when no worker runs) opens it. */
  log: string;
  logs: string;
  hooksLog: string;
  workerLog: string;
  /** The worker's unix socket: `<home>/worker.sock` where that fits, else in `socketDir` (see socket-owner.ts). */
  socket: string;
  /** The directory that holds `socket`: `home`, or a 0700 directory of this user's own when `home` is too long. */
  socketDir: string;
  pidFile: string;
  /** Created exclusively by the one hook that starts the worker, so racing hooks start one. */
  startLock: string;
  /**
   * Present while the log is known damaged or unopenable: the worker writes why (and what to
   * run), doctor shows it, and the prompt hook checks it with one stat before saying "saved".
   */
  logBroken: string;
  /** Projector state and checkpoints. */
  state: string;
  /** Projections that are not memory files (sessions, trace). */
  views: string;
  /** `CLAUDE_CONFIG_DIR`; default `~/.claude`. */
  claude: string;
  /** LanceDB: the vectors projection, one table per embedding model. */
  vectors: string;
  /** Vectors by model + content hash (LevelDB): a cache no reset or rebuild drops. */
  embeddingCache: string;
  /** Model folders an embedder loads (fastembed's BGE-small). */
  models: string;
  /** The user's settings (src/config/setting-table.ts); the environment overrides each. */
  config: string;
}

// A unix socket path must fit in sun_path (108 bytes on Linux, 104 on macOS).
const MAX_SOCKET_PATH = 100;

export function resolvePaths(env: NodeJS.ProcessEnv = process.env): EngramPaths {
  const home = resolve(env.ENGRAM_HOME || join(homedir(), '.engram'));
  const claude = resolve(env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'));
  const { socket, socketDir } = socketPlace(home, env);
  return {
    home,
    spoolTmp: join(home, 'spool', 'tmp'),
    spoolNew: join(home, 'spool', 'new'),
    spoolRejected: join(home, 'spool', 'rejected'),
    spoolLost: join(home, 'spool', 'lost'),
    log: join(home, 'log'),
    logs: join(home, 'logs'),
    hooksLog: join(home, 'logs', 'hooks.log'),
    workerLog: join(home, 'logs', 'worker.log'),
    socket,
    socketDir,
    pidFile: join(home, 'worker.pid'),
    startLock: join(home, 'worker.starting'),
    logBroken: join(home, 'log.broken'),
    state: join(home, 'state'),
    views: join(home, 'views'),
    claude,
    vectors: join(home, 'vectors'),
    embeddingCache: join(home, 'cache', 'embeddings'),
    models: join(home, 'models'),
    config: join(home, 'config.json'),
  };
}

/**
 * Where the worker listens. A path too long for `sun_path` moves to a directory only this user can
 * enter, never to a name in a shared directory that another local user could create first (they
 * would then be the worker: read every command and prompt, answer recall). That directory is
 * `$XDG_RUNTIME_DIR/engram` (the login session's own, 0700) when set, else `<tmp>/engram-<uid>`; the
 * worker creates it 0700 and both ends check its owner (socket-owner.ts). The socket is named by a
 * hash of the home, so several homes of one user never share one. Pure: hooks call this per run.
 */
function socketPlace(home: string, env: NodeJS.ProcessEnv): { socket: string; socketDir: string } {
  const inHome = join(home, 'worker.sock');
  if (Buffer.byteLength(inHome) <= MAX_SOCKET_PATH) return { socket: inHome, socketDir: home };
  const name = `${fnv1a(home)}.sock`;
  const runtime = env.XDG_RUNTIME_DIR;
  const uid = process.getuid?.() ?? 'user';
  const tmp = env.TMPDIR && isAbsolute(env.TMPDIR) ? env.TMPDIR : '/tmp';
  const candidates = [...(runtime && isAbsolute(runtime) ? [join(runtime, 'engram')] : []), join(tmp, `engram-${uid}`)];
  for (const dir of candidates) {
    if (Buffer.byteLength(join(dir, name)) <= MAX_SOCKET_PATH) return { socket: join(dir, name), socketDir: dir };
  }
  const dir = join('/tmp', `engram-${uid}`);
  return { socket: join(dir, name), socketDir: dir };
}

// Not node:crypto: hooks import this file, and every module a hook loads is paid on each prompt.
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Claude Code keeps a project directory name to this many characters, then adds a hash. */
const MAX_SLUG = 200;

/**
 * Claude Code's own name for a project's directory under `<claude>/projects/`: every UTF-16
 * code unit that is not an ASCII letter or digit becomes `-`, one for one; a name longer than
 * 200 keeps its first 200 and gets `-` and a hash of the whole path in base 36 (read from
 * `@anthropic-ai/claude-agent-sdk` 0.3.332, the sanitizer Claude Code 2.1.332 uses). Memories
 * written to any other directory would never be loaded. Pure: Claude Code resolves symlinks
 * (and NFC-normalizes on macOS) before this, and the cwd a hook receives is already that path.
 */
export function projectSlug(cwd: string): string {
  const slug = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (slug.length <= MAX_SLUG) return slug;
  return `${slug.slice(0, MAX_SLUG)}-${Math.abs(javaStringHash(cwd)).toString(36)}`;
}

// Claude Code's hash for long project paths: the Java String.hashCode recurrence in int32.
function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The directory of global memories (preferences that hold in every project), relative to Claude
 * Code's config directory. Claude Code reads no global memory directory of its own, so the
 * SessionStart summary brings these in; they live beside Claude Code's, where people look.
 */
export const GLOBAL_MEMORY_DIR = 'engram/memory';

/** A project's memory directory, relative to Claude Code's config directory. */
export function projectMemoryDir(cwd: string): string {
  return `projects/${projectSlug(cwd)}/memory`;
}
