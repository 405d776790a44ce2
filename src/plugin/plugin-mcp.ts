import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILD_ID } from '../build-id.js';
import { ensureWorker } from '../launch/ensure-worker.js';
import { resolvePaths } from '../paths.js';
import { runtimeDir } from '../launch/runtime-dir.js';
import { readRuntimeStatus, runtimeCli } from '../launch/runtime-status.js';

/**
 * How long the plugin's MCP server waits, on its first start, for engram's runtime to be
 * prepared (ENGRAM_MCP_RUNTIME_WAIT_MS). Default 5 minutes: one `npm ci` of the worker's
 * dependencies on a slow machine.
 */
export const MCP_RUNTIME_WAIT_MS = 300_000;

/**
 * The command the plugin manifest gives for engram's MCP server (`plugin/bin/mcp.cjs`, committed
 * like the hooks, since Claude Code clones the plugin and builds nothing): runs `engram mcp` from
 * the CLI beside it when the clone is built, else from the runtime engram prepares for this build
 * (prepare-runtime.ts), starting that preparation as a hook would and waiting for it. The server
 * itself inherits stdio; this process only passes on its exit and the signals it gets.
 */
export async function runPluginMcp(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const built = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
  const paths = resolvePaths(env);
  const runtime = runtimeDir(paths, env);
  let cli = existsSync(built) ? built : runtimeCli(runtime, BUILD_ID);
  const wait = Number(env.ENGRAM_MCP_RUNTIME_WAIT_MS);
  const deadline = Date.now() + (Number.isFinite(wait) && wait >= 0 ? wait : MCP_RUNTIME_WAIT_MS);
  while (!existsSync(cli)) {
    await ensureWorker(paths, { ...env, ENGRAM_WORKER_AUTOSTART: '1' });
    const status = readRuntimeStatus(runtime, BUILD_ID);
    if (status?.state === 'failed') return fail(`engram's worker runtime could not be prepared (${status.step}): ${status.error ?? 'see engram doctor'}`);
    if (Date.now() > deadline) return fail(`engram's worker runtime is still being prepared (${status?.step ?? 'not started'}); the MCP server starts once it is ready`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    cli = existsSync(built) ? built : cli;
  }
  const child = spawn(process.execPath, [cli, 'mcp'], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.once('error', (err) => resolve(fail(`engram mcp could not start: ${err.message}`)));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 1;
}
