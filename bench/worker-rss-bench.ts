import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkerRssResult {
  /** Resident memory of the idle worker before the model was ever loaded, MB. */
  neverLoadedMb: number;
  /** Idle with the model loaded (after a recall), MB. */
  withModelMb: number;
  /** Idle after the model was let go for being unused, MB. */
  letGoMb: number;
}

interface Status {
  /** `rssMb`: the model's own process (USE Lite on onnxruntime), counted in "with the model". */
  model: { state: string; unloads?: number; rssMb?: number };
  rssMb: number;
}

/**
 * A real worker with the default model (USE Lite) and a short ENGRAM_MODEL_IDLE_MS: its resident
 * memory idle before any recall, idle with the model in after one through the prompt hook, and
 * idle again once it let the model go. Read from `engram worker status --json`.
 */
export async function workerRssBench(options: { repo: string; dir: string }): Promise<WorkerRssResult> {
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const hook = join(options.repo, 'dist', 'hooks', 'user-prompt-submit.cjs');
  const project = join(options.dir, 'project');
  const source = join(options.dir, 'source');
  mkdirSync(source, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(source, 'vacuum.md'), '---\nname: Postgres vacuum schedule\ndescription: vacuum the ledger table after bulk imports\ntype: project\n---\nRun VACUUM ANALYZE on the ledger table after bulk imports of settlements.\n');
  const env = {
    ...process.env,
    ENGRAM_HOME: join(options.dir, 'home'),
    CLAUDE_CONFIG_DIR: join(options.dir, 'claude'),
    ENGRAM_EMBEDDER: 'use-lite',
    ENGRAM_MODEL_IDLE_MS: '10000',
    ENGRAM_RECALL_WAIT_MS: '60000',
    ENGRAM_WORKER_AUTOSTART: '0',
    ENGRAM_DISTILLER: 'off',
    ENGRAM_LLM_CMD: '',
  };
  mkdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true });
  const run = (args: string[], input?: string) => {
    const result = spawnSync(process.execPath, args, { env, encoding: 'utf8', input });
    if (result.status !== 0) throw new Error(`${args.slice(1).join(' ')} failed (${result.status}): ${result.stderr}`);
    return result.stdout;
  };
  const status = () => JSON.parse(run([cli, 'worker', 'status', '--json'])) as Status;
  const until = async (test: (s: Status) => boolean): Promise<Status> => {
    for (let tries = 0; tries < 600; tries++) {
      const now = status();
      if (test(now)) return now;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the worker never reached the state the bench waits for');
  };
  run([cli, 'import', source, '--project', project]);
  run([cli, 'worker', '--detach']);
  try {
    // Idle: nothing to ingest, nothing asked.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const never = await until((s) => s.model.state === 'not loaded');
    const ask = (session: string) => run([hook], JSON.stringify({ session_id: session, cwd: project, hook_event_name: 'UserPromptSubmit', prompt: 'how do we vacuum the ledger table after bulk imports?' }));
    ask('rss-1');
    await until((s) => s.model.state === 'loaded');
    // The load is in; a second question uses it, then the worker sits idle with it.
    ask('rss-2');
    const loaded = status();
    const letGo = await until((s) => (s.model.unloads ?? 0) >= 1 && s.model.state === 'not loaded');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return { neverLoadedMb: never.rssMb, withModelMb: loaded.model.state === 'loaded' ? loaded.rssMb + (loaded.model.rssMb ?? 0) : Number.NaN, letGoMb: status().rssMb || letGo.rssMb };
  } finally {
    spawnSync(process.execPath, [cli, 'worker', 'stop'], { env });
  }
}
