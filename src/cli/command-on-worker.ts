import { EngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import { askWorker } from '../socket/worker-client.js';
import type { progressBar } from './progress-bar.js';

export interface Terminal {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * Engine command `name` run by the running worker, its output printed as it comes: the exit
 * code, 0 when the reader went away (`| head`). Rejects as askWorker does: WORKER_UNREACHABLE
 * when no worker took the command (nothing ran), so the caller may run it elsewhere. Shared by
 * the full CLI (run-engine-command.ts) and the bin's front end (answer-from-worker.ts), so the
 * two print the same bytes.
 */
export async function commandOnWorker(
  paths: EngramPaths,
  command: { name: string; args: Record<string, unknown> },
  terminal: Terminal,
  bar: ReturnType<typeof progressBar>,
): Promise<number> {
  let code: number | undefined;
  const readerGone = new AbortController();
  await askWorker(
    paths,
    { op: 'command', name: command.name, args: command.args, tty: Boolean(terminal.stderr.isTTY) },
    (response) => {
      if (response.t === 'out') {
        terminal.stdout.write(response.text, (err) => {
          if (err) readerGone.abort(err);
        });
      } else if (response.t === 'err') (bar.clear(), terminal.stderr.write(response.text));
      else if (response.t === 'progress') bar.show(response.done, response.total, response.unit);
      else if (response.t === 'exit') code = response.code;
    },
    { signal: readerGone.signal },
  );
  bar.clear();
  if (readerGone.signal.aborted) return 0;
  if (code === undefined) throw new EngramError('WORKER_PROTOCOL', 'the worker closed the connection before the command finished');
  return code;
}
