import { fileURLToPath } from 'node:url';
import { BUILD_ID } from '../build-id.js';
import { isOlderBuild } from '../compare-builds.js';
import { ensureWorker } from '../launch/ensure-worker.js';
import type { EngramPaths } from '../paths.js';
import { requestHandOver } from '../launch/hand-over.js';
import { liveWorker } from '../launch/live-worker.js';

/**
 * How long a command waits for the log while an older worker hands over: the old worker first
 * finishes its round and the requests it is serving (see worker.ts, `handOverWaitMs`).
 */
export const HAND_OVER_WAIT_MS = 120_000;

/**
 * A CLI newer than the running worker asks it to hand over, as a hook would: the old worker
 * finishes what it is doing and exits, and one of this build starts and waits for the log
 * (unless ENGRAM_WORKER_AUTOSTART=0: then the command runs in this process once the old worker
 * has gone, and the next hook starts a new one). True when a hand-over is under way.
 */
export async function handOverIfOlder(paths: EngramPaths, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): Promise<boolean> {
  const running = await liveWorker(paths);
  if (!running || !isOlderBuild(running.build, BUILD_ID)) return false;
  stderr.write(`engram: the running worker (pid ${running.pid}, build ${running.build ?? 'from before build ids'}) is older than this engram (${BUILD_ID}); it hands over\n`);
  if (env.ENGRAM_WORKER_AUTOSTART === '0') await requestHandOver(paths, BUILD_ID);
  else await ensureWorker(paths, env, { cliPath: fileURLToPath(new URL('./main.js', import.meta.url)) });
  return true;
}
