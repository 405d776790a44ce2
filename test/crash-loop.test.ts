import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../bench/seeded-random.js';
import { cliHere, cliPath, drain, dumpLog, runHook, useTempHomes, walkFiles, type HookName, type ProcessResult } from './support/temp-home.js';
import { useWarmHookCode } from './support/warm-hook-code.js';

/**
 * Issue 19's crash-test loop (DESIGN.md invariants: the log is the only truth, every output is a
 * replay of it): real hook processes append while a real worker ingests and its sinks write the
 * views and Claude Code's memory files, and the worker is killed with SIGKILL at random instants,
 * several times, and started again. Then a drain, and a fresh replay of the whole log into a
 * directory of its own must write exactly the files the crashed-and-restarted worker left, and
 * every hook that exited 0 must have its event in the log exactly once.
 *
 * Seeded: the seed picks the sessions, prompts, tool calls, the kill delays and the pauses; when
 * each kill lands in the worker's work is the machine's. In CI it is bounded to about a minute:
 * seeds 1 and 2, 3 kills each. Longer runs by hand: ENGRAM_CRASH_SEED (one seed) or
 * ENGRAM_CRASH_SEEDS (a list, `1,2,3`), ENGRAM_CRASH_KILLS (kills a seed; ENGRAM_CRASH_LOOP=1
 * alone makes it 8), and `node scripts/crash-loop.mjs` over many seeds.
 */
const LONG = process.env.ENGRAM_CRASH_LOOP === '1';
const SEEDS = (process.env.ENGRAM_CRASH_SEED ?? process.env.ENGRAM_CRASH_SEEDS ?? (LONG ? '1' : '1,2')).split(',').map(Number);
const KILLS = Number(process.env.ENGRAM_CRASH_KILLS ?? (LONG ? '8' : '3'));
// Sessions whose hooks run side by side: three keep hooks appending at every instant of a worker's
// life on two cores (five made the worker's own start-up wait behind them, so the loop ran longer
// and spawned more hooks for the same kills). ENGRAM_CRASH_SESSIONS=5 runs more by hand.
const SIDE_BY_SIDE = Number(process.env.ENGRAM_CRASH_SESSIONS ?? 3);
// A command the worker runs under, split on spaces (e.g. `strace -f -o /dev/null -e inject=rename:delay_enter=20000`):
// widens the windows between a sink's steps without loading the machine. Default none.
const WRAP = (process.env.ENGRAM_CRASH_WRAP ?? '').split(' ').filter(Boolean);

const newHome = useTempHomes();
// About kills while hooks append, not a hook's first start: each home starts with the hooks' code
// cache a first hook of each kind would have left (every hook then costs ≈ 0.16 s of CPU, not 0.25).
const warmHookCode = useWarmHookCode();
const projects = ['/home/dev/src/shop', '/home/dev/src/billing-api'];
// Corrections the prompt hook's detector turns into lessons (memory files, MEMORY.md lines); the
// same lesson comes back in other sessions, so the sinks rewrite files that already exist.
const corrections = [
  'no, use pnpm here, not npm',
  'from now on always run the linter before you commit',
  "don't use var in this codebase, use const",
  'this repo uses vitest, not jest',
];
const tools = ['Read', 'Edit', 'Bash', 'Grep'];

/** A hook run: which hook, its payload, and how to find its event in the log. */
interface Fired {
  hook: HookName;
  key: string;
  result: ProcessResult;
}

/** The event a hook's key names: one per hook run, by what the run alone carried. */
function keyOf(event: Record<string, any>): string | undefined {
  switch (event.type) {
    case 'PromptSubmitted':
      return `prompt ${event.session} ${event.data.prompt}`;
    case 'ToolCalled':
      return `tool ${event.data.toolUseId}`;
    case 'SessionStarted':
      return `start ${event.session}`;
    case 'SessionEnded':
      return `end ${event.session}`;
    default:
      return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function killWorker(child: ChildProcess): void {
  if (WRAP.length > 0) process.kill(-child.pid!, 'SIGKILL');
  else child.kill('SIGKILL');
}

/** What two versions of a file do not share, line by line: `-` the live worker's, `+` the replay's. */
function lineDiff(live: string | undefined, replayed: string | undefined): string {
  const a = (live ?? '').split('\n');
  const b = (replayed ?? '').split('\n');
  const notIn = (lines: string[], other: string[], mark: string) => lines.map((line, i) => [line, i] as const).filter(([line]) => !other.includes(line)).map(([line, i]) => `  ${mark} ${i + 1}: ${line}`);
  const moved = a.length === b.length && notIn(a, b, '-').length === 0 ? ['  (same lines, another order)', ...a.map((line, i) => (line === b[i] ? '' : `  - ${i + 1}: ${line}\n  + ${i + 1}: ${b[i]}`)).filter(Boolean)] : [];
  return [...(live === undefined ? ['  (only in the replay)'] : replayed === undefined ? ['  (only in the live home)'] : []), ...notIn(a, b, '-'), ...notIn(b, a, '+'), ...moved].join('\n');
}

/** Temporary files a write through a temporary file could leave behind. */
function leftovers(root: string): string[] {
  return Object.keys(walkFiles(root)).filter((path) => /\.tmp$|\/\.engram-|\.old$/.test(path));
}

describe('crash-test loop: kill -9 the worker while hooks append and sinks write', () => {
  for (const SEED of SEEDS) it(`seed ${SEED}, ${KILLS} kills: drained outputs equal a fresh replay, every event stored exactly once`, async () => {
    const home = newHome();
    await warmHookCode(home, ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'SessionEnd']);
    const hookRandom = seededRandom(SEED);
    const killRandom = seededRandom(SEED ^ 0x5eed);

    // The worker, killed and restarted by a loop of its own while the hooks run.
    let worker: { child: ChildProcess; exited: Promise<unknown> } | undefined;
    const startWorker = () => {
      const [command, ...args] = [...WRAP, process.execPath, cliPath, 'worker'];
      // Under a wrapper, in a group of its own: the kill takes the wrapper and the worker at once.
      const child = spawn(command!, args, { env: home.env, stdio: 'ignore', detached: WRAP.length > 0 });
      worker = { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
    };
    let hooksDone = false;
    let kills = 0;
    let workingKills = 0;
    /** When a sink last wrote: the newest modification among the views and memory files. */
    const outputsWritten = () => {
      let newest = 0;
      const visit = (dir: string) => {
        let entries;
        try {
          entries = readdirSync(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) {
            visit(path);
            continue;
          }
          try {
            newest = Math.max(newest, statSync(path).mtimeMs);
          } catch {
            // Renamed away between the listing and the stat: a sink is writing.
          }
        }
      };
      visit(home.paths.views);
      visit(join(home.paths.claude, 'projects'));
      return newest;
    };
    /**
     * Resolves once `test` holds, or `timeoutMs` has passed: the kill happens either way. Looked
     * at every 20 ms (each look walks the views and memory directories): well inside the random
     * delay that follows it.
     */
    const until = async (test: () => boolean, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !test()) await sleep(20);
    };
    const startedLines = () => {
      try {
        return readFileSync(home.paths.workerLog, 'utf8').split('\n').filter((line) => line.includes(' started;')).length;
      } catch {
        return 0;
      }
    };
    const killer = (async () => {
      while (kills < KILLS) {
        const before = outputsWritten();
        const startedBefore = startedLines();
        startWorker();
        const mode = killRandom();
        if (mode < 0.2) {
          // During start-up: before or while the log opens and is read through.
          await sleep(Math.floor(killRandom() * 1500));
        } else if (mode < 0.6) {
          // At a random instant of its working life, once it said it started (start-up takes
          // seconds on a loaded machine, so a delay from the spawn would mostly land before).
          await until(() => startedLines() > startedBefore, 30_000);
          await sleep(Math.floor(killRandom() * 1500));
        } else {
          // Just after its sinks began to write: inside projections, sinks' writes, the next ingest.
          await until(() => outputsWritten() > before, 30_000);
          await sleep(Math.floor(killRandom() * 300));
        }
        // Whether it died with its sinks at work (not at start-up, not idle since).
        if (outputsWritten() > before) workingKills++;
        killWorker(worker!.child);
        await worker!.exited;
        kills++;
        // Sometimes hooks spool for a while with no worker at all.
        await sleep(Math.floor(killRandom() * 400));
      }
      // The hooks may still be running: a worker takes them, and is stopped at the end.
      if (!hooksDone) startWorker();
    })();

    const fired: Fired[] = [];
    // A session's hooks have the user's and the model's time between them: up to 200 ms here
    // (seeded, a stream of its own so the seed's sessions stay what they were). Back to back, the
    // sessions spawned hooks as fast as two cores started them, and hooks were most of the loop's CPU.
    const pauseRandom = seededRandom(SEED ^ 0x7a5e);
    const fire = async (hook: HookName, key: string, payload: object) => {
      fired.push({ hook, key, result: await runHook(hook, payload, home.env) });
      await sleep(Math.floor(pauseRandom() * 200));
    };
    let session = 0;
    let toolUse = 0;
    const runSession = async () => {
      const id = `crash-${SEED}-s${++session}`;
      const cwd = projects[Math.floor(hookRandom() * projects.length)]!;
      const base = { session_id: id, transcript_path: `/tmp/${id}.jsonl`, cwd };
      await fire('SessionStart', `start ${id}`, { ...base, hook_event_name: 'SessionStart', source: 'startup' });
      const turns = 2 + Math.floor(hookRandom() * 4);
      for (let turn = 0; turn < turns; turn++) {
        const prompt = hookRandom() < 0.4 ? corrections[Math.floor(hookRandom() * corrections.length)]! : `fix the failing test number ${turn} in ${cwd.split('/').pop()}`;
        // A session says a correction once: its key is the session and the prompt.
        if (fired.some((f) => f.key === `prompt ${id} ${prompt}`)) continue;
        await fire('UserPromptSubmit', `prompt ${id} ${prompt}`, { ...base, hook_event_name: 'UserPromptSubmit', prompt });
        for (let call = Math.floor(hookRandom() * 3); call > 0; call--) {
          const tool = tools[Math.floor(hookRandom() * tools.length)]!;
          const tool_use_id = `toolu_crash_${SEED}_${++toolUse}`;
          const tool_input = tool === 'Bash' ? { command: 'pnpm test' } : tool === 'Grep' ? { pattern: 'TODO', path: 'src' } : { file_path: `${cwd}/src/file${toolUse % 7}.ts` };
          await fire('PostToolUse', `tool ${tool_use_id}`, { ...base, hook_event_name: 'PostToolUse', tool_name: tool, tool_input, tool_response: {}, tool_use_id });
        }
      }
      await fire('SessionEnd', `end ${id}`, { ...base, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    };
    // Sessions side by side, one after another, until the killer has made its kills.
    let stopHooks = false;
    void killer.then(() => (stopHooks = true));
    await Promise.all(
      Array.from({ length: SIDE_BY_SIDE }, async () => {
        while (!stopHooks) await runSession();
      }),
    );
    hooksDone = true;
    await killer;
    // The worker that took the last hooks: killed too, not counted among the random kills.
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
      killWorker(worker.child);
      await worker.exited;
    }

    // Most kills wait for the worker to start or its sinks to write: some must land after its sinks
    // wrote for this to test anything.
    if (KILLS >= 4) expect(workingKills).toBeGreaterThan(0);

    await drain(home.env);
    const log = await dumpLog(home.env);

    // Exactly once: no id twice, and each hook that exited 0 has its one event in the log.
    expect(fired.every((f) => f.result.code === 0)).toBe(true);
    expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
    const counted = new Map<string, number>();
    for (const event of log) {
      const key = keyOf(event);
      if (key) counted.set(key, (counted.get(key) ?? 0) + 1);
    }
    const missingOrTwice = fired.filter((f) => counted.get(f.key) !== 1).map((f) => `${f.key}: ${counted.get(f.key) ?? 0}`);
    expect(missingOrTwice, `hook events missing or stored twice: ${missingOrTwice.join('; ')}`).toEqual([]);
    expect(readdirSync(home.paths.spoolNew), 'spool/new after the drain').toEqual([]);

    // A fresh replay of the whole log, into a directory of its own.
    const head = Math.max(...log.map((e) => e.seq as number));
    const out = join(home.root, 'replayed');
    const replay = await cliHere(['replay', '--until', String(head), '--out', out], home.env);
    expect(replay.code, replay.stderr).toBe(0);

    // Compared: every view, and Claude Code's memory directories (each project's memory/*.md and
    // MEMORY.md): everything the sinks write from the log.
    const live = { ...walkFiles(home.paths.views), ...walkFiles(join(home.paths.claude, 'projects')) };
    const replayed = { ...walkFiles(join(out, 'views')), ...walkFiles(join(out, 'claude', 'projects')) };
    const differing = [...new Set([...Object.keys(live), ...Object.keys(replayed)])].filter((path) => live[path] !== replayed[path]);
    expect(differing, `differ from the replay: ${differing.map((path) => `${path}\n${lineDiff(live[path], replayed[path])}`).join('\n')}`).toEqual([]);
    expect(Object.keys(live).filter((path) => path.includes('/memory/')).length).toBeGreaterThan(1);
    const left = leftovers(join(home.paths.claude, 'projects'));
    expect(left, `temporary files left: ${left.join(', ')}`).toEqual([]);
    const doctor = await cliHere(['doctor'], home.env);
    expect(doctor.stdout + doctor.stderr).not.toMatch(/changed by someone/);

    const memoryFiles = Object.keys(live).filter((path) => path.includes('/memory/')).length;
    console.log(`crash loop: seed ${SEED}: ${kills} kills (${workingKills} after its sinks wrote), ${fired.length} hooks, ${log.length} events, ${Object.keys(live).length} files compared (${memoryFiles} memory), ${differing.length} differences`);
  }, 120_000 + KILLS * 45_000);
});
