import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** Where a model's code runs, and how it is spoken to: the same either way. */
export interface ModelHost {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when it ends, whatever the cause; `why` says it for an error message. */
  onEnd(listener: (why: string, cause?: unknown) => void): void;
  /** Whether it keeps this process alive (while it answers) or not (while it waits). */
  ref(): void;
  unref(): void;
  /** A process's resident memory in MB (Linux; undefined elsewhere, and for a thread: it is this process's). */
  rssMb(): number | undefined;
  /** Ends it, all its memory given back; resolves when it has ended. */
  terminate(): Promise<void>;
}

/**
 * Runs `code` (CommonJS text) in a thread or in a child process of its own. In the code,
 * `require('node:worker_threads').parentPort ?? process` is the channel, and its data is
 * `workerData` in a thread, `JSON.parse(process.argv[1])` in a process.
 *
 * A thread is cheap to start and its WebAssembly memory goes with it (TensorFlow.js on WASM).
 * A process is for native code: onnxruntime-node's addon loads once per process ("Module did not
 * self-register" in a second thread after the first ended), and what its sessions allocated
 * stayed in the thread's malloc arenas after release and terminate (≈ 65 MB measured), where a
 * process's exit gives all of it back; a native crash, too, ends the child and not the worker.
 */
export function startModelHost(code: string, data: unknown, where: 'thread' | 'process'): ModelHost {
  const ended: Array<(why: string, cause?: unknown) => void> = [];
  let done = false;
  const end = (why: string, cause?: unknown) => {
    if (done) return;
    done = true;
    for (const listener of ended) listener(why, cause);
  };
  if (where === 'thread') {
    const worker = new Worker(code, { eval: true, workerData: data });
    worker.on('error', (err) => end(err.message, err));
    worker.on('exit', (exitCode) => end(`its thread ended (exit code ${exitCode})`));
    return {
      post: (message) => worker.postMessage(message),
      onMessage: (listener) => worker.on('message', listener),
      onEnd: (listener) => ended.push(listener),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
      rssMb: () => undefined,
      terminate: async () => {
        await worker.terminate();
      },
    };
  }
  // Its own output is nobody's: errors come back as messages. `advanced`: typed arrays as they are.
  // `--expose-gc`: the code may drop what it loaded only to build its model (gc(), if defined).
  const child = spawn(process.execPath, ['--expose-gc', '-e', code, JSON.stringify(data)], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('error', (err) => end(err.message, err));
  child.on('exit', (exitCode, signal) => end(`its process ended (${signal ?? `exit code ${exitCode}`})`));
  return {
    post: (message) => {
      if (child.connected) child.send(message as never);
    },
    onMessage: (listener) => child.on('message', listener),
    onEnd: (listener) => ended.push(listener),
    ref: () => {
      child.ref();
      child.channel?.ref();
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
    rssMb: () => {
      try {
        const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
      } catch {
        return undefined;
      }
    },
    terminate: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        // Kept alive until it has gone: whoever closes waits for the memory to be given back.
        child.ref();
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
