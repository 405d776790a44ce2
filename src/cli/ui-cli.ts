import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { EngramError } from '../errors.js';
import { askWorker, pingWorker } from '../socket/worker-client.js';
import type { EngineCommandContext } from './run-engine-command.js';

/**
 * `engram ui [--port N] [--open]`: asks the worker (started first when none runs, by
 * `startWorker`) to serve the viewer, prints its URL with the token, and with `--open` hands
 * the URL to the desktop's opener. The viewer lives in the worker, the log's one holder, and
 * stops with it.
 */
export async function uiCli(args: string[], ctx: EngineCommandContext, startWorker: () => Promise<number>): Promise<number> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, open: { type: 'boolean', default: false } } });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(/^\d+$/.test(values.port!) && port >= 1 && port <= 65535)) {
    throw new EngramError('USAGE', `--port takes a port number from 1 to 65535, not ${JSON.stringify(values.port)}`);
  }
  if (!(await pingWorker(ctx.paths))) {
    const code = await startWorker();
    if (code !== 0) return code;
  }
  let url: string | undefined;
  let problem = '';
  await askWorker(ctx.paths, { op: 'ui', ...(port === undefined ? {} : { port }) }, (response) => {
    if (response.t === 'ui') url = response.url;
    else if (response.t === 'err') problem += response.text;
  });
  if (url === undefined) {
    ctx.terminal.stderr.write(`engram: ${problem.trim() || 'the viewer did not start: the worker gave no URL'}\n`);
    return 1;
  }
  const pong = await pingWorker(ctx.paths);
  ctx.terminal.stdout.write(`${url}\n`);
  ctx.terminal.stderr.write(
    `the viewer runs in the worker${pong ? ` (pid ${pong.pid})` : ''} on 127.0.0.1 only; the URL's token changes with each worker. It stops with the worker (\`engram worker stop\`, or after ENGRAM_WORKER_IDLE_MS with no page viewed).\n`,
  );
  if (values.open) openInBrowser(url, ctx.terminal.stderr);
  return 0;
}

function openInBrowser(url: string, stderr: NodeJS.WritableStream): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
  child.on('error', (err) => stderr.write(`engram: could not open a browser (${opener}: ${err.message}); open the URL above\n`));
  child.unref();
}
