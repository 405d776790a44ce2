import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { spoolFileName } from '../src/spool/spool-file-name.js';
import { cliHere, dumpLog, hookFiles, hooksDir, runHook, type TempHome, useTempHomes } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

// The worker never takes a live hook's spool/tmp file, however slow the hook (DESIGN.md
// invariant 5; issue 19: under CPU starvation the old 10-second rule took slow hooks' files and
// their renames failed). A real hook process, held by strace on entry to its spool rename (a
// signal strace injects lands only after the syscall, so the hold is strace's own delay).
const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace) console.warn('spool-slow-hook.test.ts: skipped, needs strace to stop a hook at its rename');

const home = useTempHomes();
// The age past which the old rule took a file from spool/tmp, and past which a live hook's file
// still stops holding newer ones back (spoolStaleMs): 10 s by default, short here so that the
// test waits past it in a moment instead of 11 s.
const STALE_MS = 500;
const payload = { session_id: 'sess-slow', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/src/app', hook_event_name: 'UserPromptSubmit', prompt: 'the slow hook prompt about caching' };

/** The prompt hook under strace, held `holdMs` on entry to its first rename (the spool's): stopped, traced. */
async function stoppedHook(h: TempHome, holdMs: number) {
  const child = spawn(
    'strace',
    ['-f', '--seccomp-bpf', '-qq', '-o', '/dev/null', '-e', 'trace=rename,renameat,renameat2', '-e', `inject=rename,renameat,renameat2:delay_enter=${holdMs * 1000}:when=1`, process.execPath, join(hooksDir, hookFiles.UserPromptSubmit)],
    { env: { ...h.env, ENGRAM_HOOK_CODE_CACHE: 'off' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.stdin!.end(JSON.stringify(payload));
  let tmpName = '';
  const stopped = await waitUntil(() => {
    const names = existsSync(h.paths.spoolTmp) ? readdirSync(h.paths.spoolTmp) : [];
    if (names.length !== 1) return false;
    tmpName = names[0]!;
    try {
      const state = readFileSync(`/proc/${Number(tmpName.split('-')[1])}/stat`, 'latin1').split(') ')[1]?.[0];
      return state === 'T' || state === 't';
    } catch {
      return false;
    }
  }, 60_000);
  expect(stopped).toBe(true);
  const pid = Number(tmpName.split('-')[1]);
  /**
   * Ends the hold now rather than when strace's delay runs out (the hold is long so that no slow
   * machine ends it early): strace killed detaches the hook, which goes on from where it was held,
   * or dies there if it was killed meanwhile. strace waits out its delay before any signal but
   * SIGKILL.
   */
  const release = async () => {
    child.kill('SIGKILL');
    await exited;
    expect(await waitUntil(() => !existsSync(`/proc/${pid}`), 30_000)).toBe(true);
  };
  return { pid, tmpName, release, stdout: () => stdout };
}

function prompts(events: Array<Record<string, any>>): string[] {
  return events.filter((event) => event.type === 'PromptSubmitted').map((event) => event.data.prompt);
}

describe.skipIf(!hasStrace || process.platform !== 'linux')('a slow hook and a dead one', () => {
  it('a hook stopped past the stale age keeps its file, and finishes its own rename when it goes on', async () => {
    const h = home({ ENGRAM_SPOOL_STALE_MS: String(STALE_MS) });
    const hook = await stoppedHook(h, 100_000);
    expect(hook.tmpName).toMatch(/^\d{16}-\d+-[0-9a-f]{8}\.\d+\.json$/);
    // Past the stale age (the old rule's 10 s), by the file's name and by its mtime.
    await new Promise((resolve) => setTimeout(resolve, STALE_MS + 200));
    // Beside it, a file of the same age whose name carries no writer to ask (an older hook's): the
    // age rule takes it as a dead hook's, which says the drain saw them both past the stale age.
    const [orphan] = syntheticEvents({ sessions: 1, eventsPerSession: 1 });
    writeFileSync(join(h.paths.spoolTmp, spoolFileName(Date.now() * 1000 - 2 * STALE_MS * 1000, 1)), JSON.stringify(orphan));
    const drained = await cliHere(['worker', '--drain'], h.env);
    expect(drained.code).toBe(0);
    expect(readdirSync(h.paths.spoolTmp)).toEqual([hook.tmpName]);
    const log = await dumpLog(h.env);
    expect(log.map((event) => event.id)).toEqual([orphan!.id]);
    expect(prompts(log)).toEqual([]);

    // Let go, it renames its own file and ends: nothing in hooks.log, nothing left in spool/tmp.
    await hook.release();
    expect(existsSync(h.paths.hooksLog) ? readFileSync(h.paths.hooksLog, 'utf8') : '').toBe('');
    expect(readdirSync(h.paths.spoolTmp)).toEqual([]);
    await cliHere(['worker', '--drain'], h.env);
    expect(prompts(await dumpLog(h.env))).toEqual([payload.prompt]);
  }, 120_000);

  it('a killed hook’s file is taken at once, whole, and stored once', async () => {
    const h = home();
    const hook = await stoppedHook(h, 100_000);
    process.kill(hook.pid, 'SIGKILL');
    await hook.release();
    expect(readdirSync(h.paths.spoolTmp)).toEqual([hook.tmpName]);
    const drained = await cliHere(['worker', '--drain'], h.env);
    expect(drained.code).toBe(0);
    expect(readdirSync(h.paths.spoolTmp)).toEqual([]);
    expect(prompts(await dumpLog(h.env))).toEqual([payload.prompt]);
    await cliHere(['worker', '--drain'], h.env);
    expect(prompts(await dumpLog(h.env))).toEqual([payload.prompt]);
  }, 120_000);
});

describe('a spool timing that does not parse', () => {
  it('is said in worker.log, and the worker starts with the default timings and takes in what hooks write', async () => {
    const h = home({ ENGRAM_SPOOL_STALE_MS: 'soon' });
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    expect((await runHook('UserPromptSubmit', payload, { ...h.env, ENGRAM_RECALL_WAIT_MS: '0' })).code).toBe(0);
    expect(await waitUntil(async () => prompts(await dumpLog(h.env)).includes(payload.prompt), 30_000)).toBe(true);
    const said = readFileSync(h.paths.workerLog, 'utf8');
    expect(said).toContain('ENGRAM_SPOOL_STALE_MS is "soon", not a whole number of ms');
    expect(said).toContain("the spool's default timings are kept");
    expect((await cliHere(['worker', 'stop'], h.env)).code).toBe(0);
  });
});
