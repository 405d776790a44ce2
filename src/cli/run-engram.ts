import { Writable } from 'node:stream';
import { describeForUser, isEngramError } from '../errors.js';
import { main } from './main.js';
import { isBrokenPipe } from './run-engine-command.js';

/** What one `engram ...` printed and how it ended, as a shell sees it. */
export interface EngramRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunEngramOptions {
  /** The whole environment the command sees; process.env is not read for it. */
  env: NodeJS.ProcessEnv;
  /**
   * Where relative paths and a missing `--project` resolve from. Default: this process's. The
   * commands read process.cwd(), so a different one is entered for the command's length; calls
   * that give one run one at a time (and only where process.chdir works: not in a worker thread).
   */
  cwd?: string;
}

/**
 * `engram ARGV` in this process: the bin's main, its output collected, and a failure turned into
 * the message and exit code the bin gives it (a usage mistake 2, anything else 1; a reader gone
 * away 0). For tests of what a command does rather than of the process boundary: each spawned
 * CLI pays node's start and the whole import graph again, this pays them once. Commands that
 * read stdin (`mcp`, the question `uninstall --purge` asks) run as a process; `worker --detach`
 * runs here and starts the worker as its own detached process (the built main beside this
 * file); `worker` in the foreground takes this process's signals and is not run this way.
 */
export async function runEngram(argv: string[], options: RunEngramOptions): Promise<EngramRun> {
  if (options.cwd === undefined || options.cwd === process.cwd()) return collect(argv, options.env);
  const previous = inCwd;
  let release!: () => void;
  inCwd = new Promise((resolve) => (release = resolve));
  await previous;
  const back = process.cwd();
  try {
    process.chdir(options.cwd);
    return await collect(argv, options.env);
  } finally {
    process.chdir(back);
    release();
  }
}

// Of the module on purpose: the working directory it guards is the process's, one for every caller.
let inCwd: Promise<void> = Promise.resolve();

async function collect(argv: string[], env: NodeJS.ProcessEnv): Promise<EngramRun> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (text: string) => void) => new Writable({ decodeStrings: false, write: (chunk: Buffer | string, _encoding, done) => (add(chunk.toString()), done()) });
  const terminal = { stdout: sink((text) => (stdout += text)), stderr: sink((text) => (stderr += text)) };
  try {
    const code = await main(argv, env, terminal);
    return { code, stdout, stderr };
  } catch (err) {
    if (isBrokenPipe(err)) return { code: 0, stdout, stderr };
    return { code: isEngramError(err, 'USAGE') ? 2 : 1, stdout, stderr: `${stderr}engram: ${describeForUser(err)}\n` };
  }
}
