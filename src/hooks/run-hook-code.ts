import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statfsSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type { HookHandoff } from './hook-handoff.js';

/** The first bytes of a cache file this code wrote: anything else is not read as one. */
const MAGIC = 0x33434745; // 'EGC3': the data twice (an 'EGC1' or 'EGC2' file is simply recompiled)
const HEADER_BYTES = 8;
/**
 * A cache is written only while its file system has this much free: on a nearly full disk the
 * space is the spool's (a hook's event is worth more than a faster next start).
 */
export const CACHE_MIN_FREE_BYTES = 64 * 1024 * 1024;
/** Larger than this (twice this on disk), a cache costs more disk than its start-up saving is worth: not written. */
export const CACHE_MAX_BYTES = 1024 * 1024;

/**
 * Runs a hook's bundle (`codeFile`, CommonJS) with V8's code cache: the bytecode of the last run
 * is kept under `ENGRAM_HOME/cache/hook-code/`, so a hook process does not compile its bundle
 * again each time. Compiling was the largest part of a hook's own cost (a profile of the prompt
 * hook: more than its code's running), and Node 20 has no compile cache of its own
 * (`module.enableCompileCache` came in 22).
 *
 * The cache is only ever a shortcut: a missing, torn, foreign or stale file is recompiled from
 * the bundle and written again (whole, by rename); `ENGRAM_HOOK_CODE_CACHE=off` never reads or
 * writes one. V8 checks a cache against its own version and flags and the source's length only,
 * and a damaged one can crash it (a fatal error, not a rejection), so the file's name carries the
 * bundle's identity (inode, size, mtime) and Node's version, and the file holds the data twice:
 * read back, the two copies must be equal to the byte (see readCache).
 */
export function runHookCode(codeFile: string, env: NodeJS.ProcessEnv = process.env, handoff?: HookHandoff): void {
  const require = createRequire(codeFile);
  let run: () => unknown;
  try {
    run = prepare(codeFile, env, require);
  } catch {
    // Whatever stops the cache (an unreadable file, a vm that refuses) must not stop the hook.
    run = () => require(codeFile);
  }
  // Every hook's bundle exports `main`, run here with what its entry already did (the prompt
  // hook's stdin and recall question); a bundle that ran itself as it loaded exports none.
  const main = (run() as { main?: unknown } | undefined)?.main;
  if (typeof main === 'function') (main as (handoff?: HookHandoff) => unknown)(handoff);
}

function prepare(codeFile: string, env: NodeJS.ProcessEnv, require: NodeJS.Require): () => unknown {
  const source = readFileSync(codeFile, 'utf8');
  const cacheFile = env.ENGRAM_DISABLE === '1' || env.ENGRAM_HOOK_CODE_CACHE === 'off' ? undefined : cachePath(codeFile, env);
  const cached = cacheFile === undefined ? undefined : readCache(cacheFile);
  // The wrapper CommonJS gives a module, so the bundle runs exactly as `require` would run it.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  let script: Script;
  try {
    script = new Script(wrapped, { filename: codeFile, cachedData: cached });
  } catch (err) {
    // A cache V8 cannot even look at: compile without it (a syntax error throws again, truly).
    if (cached === undefined) throw err;
    script = new Script(wrapped, { filename: codeFile });
  }
  if (cacheFile !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
    // At exit: by then the functions the hook ran are compiled too, and go into the cache.
    process.once('exit', () => writeCache(cacheFile, script));
  }
  const module = { exports: {}, filename: codeFile, id: '.', loaded: false };
  const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  return () => {
    fn.call(module.exports, module.exports, require, module, codeFile, dirname(codeFile));
    return module.exports;
  };
}

function cachePath(codeFile: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    const stat = statSync(codeFile);
    const home = env.ENGRAM_HOME || join(homedir(), '.engram');
    const name = basename(codeFile).replace(/\.code\.cjs$|\.c?js$/, '');
    return join(home, 'cache', 'hook-code', `${name}-${stat.ino}-${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}-${process.arch}.bin`);
  } catch {
    return undefined;
  }
}

function readCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= HEADER_BYTES || bytes.readUInt32LE(0) !== MAGIC) return undefined;
  const length = bytes.readUInt32LE(4);
  if (length === 0 || bytes.length !== HEADER_BYTES + 2 * length) return undefined;
  const data = bytes.subarray(HEADER_BYTES, HEADER_BYTES + length);
  // The copies guard the bytes as a checksum would, in native code (a memcmp): a checksum in JS
  // runs cold, in the interpreter, and over a 170 KB cache cost an append hook ≈ 6 ms of CPU,
  // a fifth of its own. A torn write leaves the second copy short or zero-filled, a flipped bit
  // leaves the copies unequal; the same damage at the same place in both is not a failure mode.
  return data.equals(bytes.subarray(HEADER_BYTES + length)) ? data : undefined;
}

function writeCache(file: string, script: Script): void {
  try {
    const data = script.createCachedData();
    if (data.length > CACHE_MAX_BYTES) return;
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32LE(MAGIC, 0);
    header.writeUInt32LE(data.length, 4);
    const dir = dirname(file);
    if (!roomFor(dir)) return;
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, Buffer.concat([header, data, data]));
      renameSync(temporary, file);
    } catch (err) {
      // A torn temporary would hold the space the cache was not worth.
      rmSync(temporary, { force: true });
      throw err;
    }
    // Caches of this hook's earlier builds: nothing will read them again.
    const prefix = basename(file).split('-').slice(0, -5).join('-') + '-';
    for (const other of readdirSync(dir)) {
      if (other !== basename(file) && other.startsWith(prefix) && /^\d/.test(other.slice(prefix.length))) unlinkSync(join(dir, other));
    }
  } catch {
    // A cache not written is only a slower next start.
  }
}

/** Whether the cache's file system has CACHE_MIN_FREE_BYTES free for an unprivileged writer. */
function roomFor(dir: string): boolean {
  // The nearest directory that exists: the cache's own may not yet.
  for (let at = dir; ; at = dirname(at)) {
    try {
      const fs = statfsSync(at);
      return fs.bavail * fs.bsize >= CACHE_MIN_FREE_BYTES;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) return false;
    }
  }
}
