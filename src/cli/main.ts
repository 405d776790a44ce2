#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILD_ID } from '../build-id.js';
import { clockFromEnv } from '../clock.js';
import { isOlderBuild } from '../compare-builds.js';
import { describeError, describeForUser, EngramError, isEngramError } from '../errors.js';
import { resolvePaths, type EngramPaths } from '../paths.js';
import { embedderChoice } from '../recall/embedders/embedder-choice.js';
import { requestHandOver } from '../launch/hand-over.js';
import { liveWorker, processRunning } from '../launch/live-worker.js';
import { askWorker, pingWorker } from '../workers/socket/worker-client.js';
import { runWorker } from '../workers/worker.js';
import { describeVersion } from '../version.js';
import { distillerFromEnv } from '../workers/reactors/distiller-from-env.js';
import { skillsFromEnv } from '../workers/reactors/skills-from-env.js';
import { syncFromEnv, type SyncSettings } from '../sync/sync-settings.js';
import { doctor, renderFindings } from './doctor.js';
import { migrate } from './migrate.js';
import { repairLog } from './repair-log.js';
import { rebuildAside } from './rebuild-aside.js';
import { defaultSettingsPath, installHooks, uninstallHooks } from './install.js';
import { refuseDoubleRecording } from './refuse-double-recording.js';
import { describePurge, executePurge, planPurge } from './purge.js';
import { defaultClaudeJsonPath, installMcpServer, MCP_SERVER_NAME, uninstallMcpServer } from './install-mcp.js';
import { MEMORIES_USAGE, memoriesCli } from './memories-cli.js';
import { queryCli } from './query-cli.js';
import { SKILLS_USAGE, skillsCli } from './skills-cli.js';
import { uiCli } from './ui-cli.js';
import { foreignSocket, foreignSocketAdvice, prepareSocketDir } from '../workers/socket/socket-owner.js';
import { workerStatus } from './worker-status.js';
import { CONFIG_USAGE, configCli } from './config-cli.js';
import { syncCli } from './sync-cli.js';
import { withConfig } from '../config/effective-settings.js';
import { settingsReport } from '../config/settings-report.js';
import { isBrokenPipe, runEngineCommand, type EngineCommandContext, type Terminal } from './run-engine-command.js';

const USAGE = `engram — long-term memory for Claude Code

  engram install [--settings PATH] [--claude-json PATH]
                                         add engram's hooks to Claude Code's settings.json and its MCP server at user scope
  engram uninstall [--settings PATH] [--claude-json PATH]
                                         remove exactly engram's hooks and MCP server; ENGRAM_HOME and memory files stay
  engram uninstall --purge [--yes]       also remove engram's own data (ENGRAM_HOME), after asking
  engram worker                          run the worker in the foreground
  engram worker --detach                 start the worker in the background
  engram worker --drain                  ingest, project and react until nothing is left, then exit
  engram worker status [--json]          whether it runs, the log, the spool, projections not up to date
  engram worker stop [--timeout SECONDS] stop the worker; exit 1 if it has not stopped in time (default 15)
  engram log dump                        every event, one JSON object a line
  engram log stats [--json]              counts by type, total, spool pending and rejected
  engram log verify [--json]             where the log is damaged, if it is (exit 1 when it is)
  engram log repair                      a new log of every readable event, the old one kept; rebuilds
  engram rebuild [--only NAME]...        drop projections and replay the log
  engram replay --until SEQ|ISO --out DIR
                                         the projections as of that point, written under DIR
  engram migrate [--dry-run] [--discard-old]
                                         run pending log migrations (or say what they would change)
  engram maintain [--now ISO] [--dry-run] [--network]
                                         the maintenance tick: decay, supersession, claims, hygiene
  engram import DIR [--project PATH | --global]
                                         an existing memory directory's memories, into the project's (default: here)
  engram reconcile [--project PATH]      record memory files changed, added or deleted by hand
  engram memories list|show|pin|unpin|forget|restore|reinforce
                                         the memories, and what a user decides about them
  engram distill --session ID            distill one session now (again, if it was)
  engram backfill [--since DATE] [--project PATH] [--dry-run] [--no-distill]
                                         adopt Claude Code's past transcripts and prompt history
  engram graph ENTITY [--project PATH] [--json]
                                         an entity: its type, aliases, relations and the memories that name it
  engram graph backfill [--project PATH] [--limit N]
                                         ask the LLM for the graphs of memories that have none
  engram routes [--project PATH] [--all] [--json]
  engram routes accept|decline ID        distilled proposals for CLAUDE.md and docs/knowledge/
  engram skills suggest [--project PATH] [--json]
                                         memories that could become skills: update which own skill, or a new one
  engram skills accept MEMORY --skill NAME | engram skills decline MEMORY
                                         record the answer (implemented_in: NAME, or declined) in the memory
  engram skills curate [--dry-run] [--now ISO]
                                         captured skills unused 30+ days (stale) or 90+ (archivable)
  engram query TEXT [--project PATH] [--limit K] [--all] [--json]
                                         what recall finds for a prompt (--all: the whole fused ranking)
  engram query --batch FILE --json       one JSON line {id, results} per line {id, text, project} of FILE
  engram mcp [--project PATH]            the MCP server over stdio: search, get (with provenance), remember, forget, timeline
  engram ui [--port N] [--open]          the local web viewer (127.0.0.1, a token per start): timeline, memories, recall, as of any seq
  engram config list|get KEY|set KEY VALUE|unset KEY
                                         the settings in ENGRAM_HOME/config.json (the environment overrides each)
  engram sync status [--json]            the sync with your other machines (docs/team-sync.md): connection, lag, last ack, last error
  engram doctor                          what is wrong, in plain words
  engram --version                       this engram's version and build

Settings: \`engram config list\` (docs/configuration.md); each has an ENGRAM_* variable that overrides it.
Environment only: ENGRAM_HOME (default ~/.engram), CLAUDE_CONFIG_DIR (default ~/.claude),
ENGRAM_NOW (pins the clock), ENGRAM_DISABLE=1 (hooks do nothing).
`;

export async function main(argv: string[], given: NodeJS.ProcessEnv, terminal: Terminal): Promise<number> {
  const paths = resolvePaths(given);
  const [command, ...rest] = argv;
  // Every setting as this process and the worker read it: the environment, then config.json.
  // `config` works on the file as it is; `doctor` reports a file it cannot read.
  let configProblem: unknown;
  let env = given;
  if (command !== 'config') {
    try {
      env = withConfig(given, paths);
    } catch (err) {
      if (command !== 'doctor' && !['--help', '-h', 'help', '--version', '-V', 'version', undefined].includes(command)) throw err;
      configProblem = err;
    }
  }
  const clock = clockFromEnv(env);
  const ctx: EngineCommandContext = { paths, clock, terminal, env };
  // `engram COMMAND --help`: that command's lines of the usage, exit 0.
  if (command !== undefined && !command.startsWith('-') && (rest.includes('--help') || rest.includes('-h'))) {
    const usage = usageOf(command);
    if (usage === undefined) throw new EngramError('USAGE', `unknown command ${JSON.stringify(command)}; see \`engram help\``);
    terminal.stdout.write(`${usage}\n`);
    return 0;
  }
  try {
    return await run(command, rest, { given, env, paths, clock, terminal, ctx, configProblem });
  } catch (err) {
    // A flag parseArgs refuses is a usage mistake: exit 2, with this command's usage.
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_') && command !== undefined) {
      throw new EngramError('USAGE', `${(err as Error).message.split('.')[0]}\nusage:\n${usageOf(command) ?? USAGE}`, { cause: err });
    }
    throw err;
  }
}

/** The lines of USAGE (or a command's own usage) for one command; undefined for a command there is none of. */
export function usageOf(command: string): string | undefined {
  const own: Record<string, string> = { memories: MEMORIES_USAGE, skills: SKILLS_USAGE, config: CONFIG_USAGE };
  if (own[command]) return own[command];
  const entries: string[][] = [];
  for (const line of USAGE.split('\n')) {
    if (line.startsWith('  engram ')) entries.push([line]);
    else if (line.startsWith('      ') && entries.length > 0) entries.at(-1)!.push(line);
    else entries.push([]);
  }
  const mine = entries.filter((entry) => entry[0]?.startsWith(`  engram ${command} `) || entry[0] === `  engram ${command}` || entry[0]?.startsWith(`  engram ${command}  `));
  return mine.length === 0 ? undefined : mine.map((entry) => entry.join('\n')).join('\n');
}

interface RunContext {
  given: NodeJS.ProcessEnv;
  env: NodeJS.ProcessEnv;
  paths: ReturnType<typeof resolvePaths>;
  clock: ReturnType<typeof clockFromEnv>;
  terminal: Terminal;
  ctx: EngineCommandContext;
  configProblem: unknown;
}

async function run(command: string | undefined, rest: string[], { given, env, paths, clock, terminal, ctx, configProblem }: RunContext): Promise<number> {
  switch (command) {
    case 'install':
    case 'uninstall': {
      const { values } = parseArgs({
        args: rest,
        options: {
          settings: { type: 'string' },
          'claude-json': { type: 'string' },
          purge: { type: 'boolean', default: false },
          yes: { type: 'boolean', default: false },
        },
      });
      if (command === 'install' && (values.purge || values.yes)) throw new EngramError('USAGE', '--purge and --yes go with `engram uninstall`');
      const settingsPath = values.settings ?? defaultSettingsPath(env);
      const hooksDir = fileURLToPath(new URL('../../hooks/', import.meta.url));
      if (command === 'install') await refuseDoubleRecording({ claudeDir: paths.claude, settingsPath }, hooksDir, terminal.stderr);
      const report = command === 'install'
        ? await installHooks({ settingsPath, hooksDir, now: clock.now() })
        : await uninstallHooks({ settingsPath, now: clock.now() });
      const summary = Object.entries(report.events).map(([event, change]) => `  ${event.padEnd(20)} ${change}`).join('\n');
      terminal.stdout.write(`${report.changed ? 'updated' : 'unchanged'}: ${report.settingsPath}\n${summary}\n`);
      if (report.backupPath) terminal.stdout.write(`backup: ${report.backupPath}\n`);
      // The MCP server, at user scope beside the hooks.
      const claudeJsonPath = values['claude-json'] ?? defaultClaudeJsonPath(env);
      const mcp = command === 'install'
        ? await installMcpServer({ claudeJsonPath, cliPath: fileURLToPath(import.meta.url), now: clock.now() })
        : await uninstallMcpServer({ claudeJsonPath, now: clock.now() });
      terminal.stdout.write(`MCP server ${MCP_SERVER_NAME}: ${mcp.change} in ${mcp.path}\n`);
      if (mcp.backupPath) terminal.stdout.write(`backup: ${mcp.backupPath}\n`);
      if (report.missingScripts.length > 0) {
        terminal.stderr.write(`warning: the hooks are not built yet (${report.missingScripts[0]} is missing): run \`npm run build\`\n`);
      }
      if (command === 'uninstall' && values.purge) return purge(ctx, values.yes);
      return 0;
    }
    case 'worker':
      return worker(rest, env, ctx);
    case 'log': {
      const [sub, ...flags] = rest;
      if (sub === 'dump') return runEngineCommand('log.dump', {}, ctx);
      if (sub === 'stats') {
        const { values } = parseArgs({ args: flags, options: { json: { type: 'boolean', default: false } } });
        return runEngineCommand('log.stats', { json: values.json }, ctx);
      }
      if (sub === 'verify') {
        const { values } = parseArgs({ args: flags, options: { json: { type: 'boolean', default: false } } });
        return runEngineCommand('log.verify', { json: values.json }, ctx);
      }
      if (sub === 'repair') return repairLog({ paths, clock, terminal });
      throw new EngramError('USAGE', 'engram log dump | engram log stats [--json] | engram log verify [--json] | engram log repair');
    }
    case 'rebuild': {
      const { values } = parseArgs({ args: rest, options: { only: { type: 'string', multiple: true } } });
      // Every projection: aside, then swapped in. One or a few: in place, by the engine.
      if ((values.only ?? []).length === 0) return rebuildAside(ctx);
      return runEngineCommand('rebuild', { only: values.only ?? [] }, ctx);
    }
    case 'replay': {
      const { values } = parseArgs({ args: rest, options: { until: { type: 'string' }, out: { type: 'string' } } });
      if (!values.until || !values.out) throw new EngramError('USAGE', 'engram replay --until SEQ|ISO --out DIR');
      // Relative to where the user is, not to wherever a running worker was started.
      return runEngineCommand('replay', { until: values.until, out: resolve(values.out) }, ctx);
    }
    case 'migrate': {
      const { values } = parseArgs({
        args: rest,
        options: { 'dry-run': { type: 'boolean', default: false }, 'discard-old': { type: 'boolean', default: false } },
      });
      return migrate({ paths, clock, dryRun: values['dry-run'], discardOld: values['discard-old'], terminal });
    }
    case 'memories':
      return memoriesCli(rest, ctx);
    case 'import': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { project: { type: 'string' }, global: { type: 'boolean', default: false } },
      });
      if (positionals.length !== 1 || (values.global && values.project !== undefined)) {
        throw new EngramError('USAGE', 'engram import DIR [--project PATH | --global]');
      }
      // Paths are the user's, relative to where they are, not to where a running worker started.
      const target = values.global ? { global: true } : { project: resolve(values.project ?? process.cwd()) };
      return runEngineCommand('import', { dir: resolve(positionals[0]!), ...target }, ctx);
    }
    case 'reconcile': {
      const { values } = parseArgs({ args: rest, options: { project: { type: 'string' } } });
      return runEngineCommand('reconcile', values.project === undefined ? {} : { project: resolve(values.project) }, ctx);
    }
    case 'maintain': {
      const { values } = parseArgs({
        args: rest,
        options: { now: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, network: { type: 'boolean', default: false } },
      });
      return runEngineCommand('maintain', { now: values.now, dryRun: values['dry-run'], network: values.network }, ctx);
    }
    case 'backfill': {
      const { values } = parseArgs({
        args: rest,
        options: { since: { type: 'string' }, project: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, 'no-distill': { type: 'boolean', default: false } },
      });
      if (values.since !== undefined && Number.isNaN(new Date(values.since).getTime())) {
        throw new EngramError('USAGE', `--since takes a date or an ISO time, not ${JSON.stringify(values.since)}`);
      }
      return runEngineCommand('backfill', {
        since: values.since,
        project: values.project === undefined ? undefined : resolve(values.project),
        dryRun: values['dry-run'],
        distill: !values['no-distill'],
      }, ctx);
    }
    case 'distill': {
      const { values } = parseArgs({ args: rest, options: { session: { type: 'string' } } });
      if (!values.session) throw new EngramError('USAGE', 'engram distill --session ID');
      return runEngineCommand('distill', { session: values.session }, ctx);
    }
    case 'graph': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { project: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } },
      });
      if (positionals[0] !== 'backfill') {
        // Anything else is an entity's name, in one word or several (`engram graph connection pool`).
        if (positionals.length === 0) throw new EngramError('USAGE', 'engram graph ENTITY [--project PATH] [--json] | engram graph backfill [--project PATH] [--limit N]');
        return runEngineCommand('graph.show', { entity: positionals.join(' '), project: resolve(values.project ?? process.cwd()), json: values.json }, ctx);
      }
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new EngramError('USAGE', '--limit takes a positive whole number');
      return runEngineCommand('graph.backfill', { project: values.project === undefined ? undefined : resolve(values.project), limit }, ctx);
    }
    case 'routes': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { project: { type: 'string' }, all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
      });
      const [sub, routeId] = positionals;
      if (sub === undefined || sub === 'list') {
        return runEngineCommand('routes.list', { project: resolve(values.project ?? process.cwd()), all: values.all, json: values.json }, ctx);
      }
      if ((sub === 'accept' || sub === 'decline') && routeId) return runEngineCommand(`routes.${sub}`, { routeId }, ctx);
      throw new EngramError('USAGE', 'engram routes [--project PATH] [--all] [--json] | engram routes accept|decline ID');
    }
    case 'skills':
      return skillsCli(rest, ctx);
    case 'query':
      return queryCli(rest, { paths, clock, env, terminal });
    case 'mcp':
      // Loaded only here: no other command pays for the MCP SDK.
      return (await import('./mcp-cli.js')).mcpCli(rest, { paths, env, stdin: process.stdin, stdout: terminal.stdout, stderr: terminal.stderr });
    case 'ui':
      return uiCli(rest, ctx, () => worker(['--detach'], env, { ...ctx, terminal: { stdout: terminal.stderr, stderr: terminal.stderr } }));
    case 'config':
      return configCli(rest, { ...ctx, env: given });
    case 'sync':
      return syncCli(rest, ctx);
    case 'doctor': {
      const { values } = parseArgs({ args: rest, options: { settings: { type: 'string' } } });
      const findings = await doctor({ paths, clock, settingsPath: values.settings ?? defaultSettingsPath(env), env, configProblem });
      terminal.stdout.write(renderFindings(findings));
      return findings.every((f) => f.ok) ? 0 : 1;
    }
    case '--version':
    case '-V':
    case 'version':
      terminal.stdout.write(`${describeVersion()}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      terminal.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new EngramError('USAGE', `unknown command ${JSON.stringify(command)}; see \`engram help\``);
  }
}

async function worker(args: string[], env: NodeJS.ProcessEnv, ctx: EngineCommandContext): Promise<number> {
  const { paths, clock, terminal } = ctx;
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      detach: { type: 'boolean', default: false },
      drain: { type: 'boolean', default: false },
      after: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const sub = positionals[0];
  if (values.drain) return runEngineCommand('drain', {}, ctx);
  if (sub === 'status') {
    if (values.json) return workerStatus(ctx, true);
    const pong = await pingWorker(paths);
    terminal.stdout.write(
      pong
        ? `running: pid ${pong.pid}, build ${pong.build ?? 'from before build ids'}${isOlderBuild(pong.build, BUILD_ID) ? ` (older than this engram, ${BUILD_ID})` : ''}, since ${pong.startedAt}, log head ${pong.head}\n`
        : 'not running\n',
    );
    return workerStatus(ctx, false);
  }
  if (sub === 'stop') return stopWorker(ctx, seconds(values.timeout, 15));
  if (sub !== undefined) throw new EngramError('USAGE', `unknown worker command ${JSON.stringify(sub)}`);
  if (values.detach) {
    // Said at once, not after waiting for a worker that will refuse to start (see socket-owner.ts).
    const foreign = foreignSocket(paths) ?? prepareSocketDir(paths);
    if (foreign) throw new EngramError('WORKER_NOT_YOURS', foreignSocketAdvice(foreign, paths));
    const running = await pingWorker(paths);
    if (running && !isOlderBuild(running.build, BUILD_ID)) {
      terminal.stdout.write(`already running: pid ${running.pid}\n`);
      return 0;
    }
    if (running && !(await requestHandOver(paths, BUILD_ID))) {
      throw new EngramError('WORKER_UNREACHABLE', `the older worker ${running.pid} did not agree to hand over; see ${paths.workerLog}`);
    }
    await mkdir(paths.logs, { recursive: true, mode: 0o700 });
    const out = openSync(paths.workerLog, 'a');
    const workerArgs = running ? ['worker', '--after', String(running.pid)] : ['worker'];
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...workerArgs], { detached: true, stdio: ['ignore', out, out], env });
    child.unref();
    let pong: Awaited<ReturnType<typeof pingWorker>>;
    const started = await waitFor(async () => (pong = await pingWorker(paths)) !== undefined && pong.pid !== running?.pid, running ? 120_000 : 15_000);
    if (!started || !pong) throw new EngramError('WORKER_UNREACHABLE', `the worker did not start; see ${paths.workerLog}`);
    terminal.stdout.write(`started: pid ${pong.pid}\n`);
    return 0;
  }
  const idle = env.ENGRAM_WORKER_IDLE_MS ? Number(env.ENGRAM_WORKER_IDLE_MS) : undefined;
  let after = values.after === undefined ? undefined : Number(values.after);
  if (after !== undefined && !(Number.isInteger(after) && after > 0)) throw new EngramError('USAGE', `--after takes a pid, not ${JSON.stringify(values.after)}`);
  if (after === undefined) {
    // `engram worker` by hand, newer than the one running: it takes over, as a hook would.
    const running = await liveWorker(paths);
    if (running && isOlderBuild(running.build, BUILD_ID) && (await requestHandOver(paths, BUILD_ID))) after = running.pid;
  }
  return runWorker({
    paths,
    clock,
    idleMs: Number.isFinite(idle) ? idle : undefined,
    after,
    distiller: distillerFromEnv(env, paths),
    embedder: embedderChoice(env),
    skills: skillsFromEnv(env, paths),
    sync: syncOrNone(env, paths, terminal),
    settings: settingsReport('worker', env),
    rereadSettings: () => settingsReport('worker', withConfig(env, paths)),
    // config.json changed under it: a successor of the same build, started with the environment
    // this worker was given, reads the file again and takes over once this one has let go.
    restart: (pid) => {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'worker', '--after', String(pid)], { detached: true, stdio: ['ignore', openSync(paths.workerLog, 'a'), openSync(paths.workerLog, 'a')], env });
      child.unref();
    },
  });
}

/**
 * `engram worker stop`: asks the worker to stop and waits until it has exited. Says so, with
 * exit 1, when it has not within `timeoutMs` (a stopped or wedged worker, or one still
 * finishing a long request): "stopped" is printed only for a worker that is gone.
 */
async function stopWorker(ctx: EngineCommandContext, timeoutMs: number): Promise<number> {
  const { paths, terminal } = ctx;
  const running = await liveWorker(paths);
  if (!running) {
    terminal.stdout.write('not running\n');
    return 0;
  }
  const deadline = Date.now() + timeoutMs;
  try {
    await askWorker(paths, { op: 'stop' }, () => undefined, { answerTimeoutMs: timeoutMs });
  } catch (err) {
    if (!isEngramError(err, 'WORKER_UNREACHABLE')) throw err;
    // Not listening (any more): it may be exiting already; the wait below tells.
  }
  // Gone, not merely on its way out: the pid file goes a moment before the process does.
  const gone = await waitFor(() => !processRunning(running.pid), Math.max(0, deadline - Date.now()));
  if (!gone) {
    terminal.stderr.write(
      `engram: worker ${running.pid} has not stopped after ${Math.round(timeoutMs / 1000)} s (stopped, wedged, or still finishing a request; see ${paths.workerLog}). \`kill ${running.pid}\` stops it; the log is safe either way\n`,
    );
    return 1;
  }
  terminal.stdout.write(`stopped worker ${running.pid}\n`);
  return 0;
}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback * 1000;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new EngramError('USAGE', `--timeout takes a number of seconds, not ${JSON.stringify(value)}`);
  return n * 1000;
}

/**
 * `engram uninstall --purge`: says what it will remove, asks (or takes `--yes`; without a terminal
 * to ask on it removes nothing), stops the worker so nothing writes behind it, then removes.
 */
async function purge(ctx: EngineCommandContext, yes: boolean): Promise<number> {
  const { paths, terminal, env } = ctx;
  const plan = planPurge(paths, env ?? process.env);
  terminal.stdout.write(describePurge(plan));
  if (plan.remove.length === 0) return 0;
  if (!yes) {
    if (!process.stdin.isTTY) {
      terminal.stderr.write('nothing removed: confirm with `engram uninstall --purge --yes`\n');
      return 1;
    }
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question('Remove these? [y/N] ').finally(() => rl.close());
    if (!/^y(es)?$/i.test(answer.trim())) {
      terminal.stdout.write('nothing removed\n');
      return 1;
    }
  }
  if (await liveWorker(paths)) {
    const stopped = await stopWorker(ctx, 15_000);
    if (stopped !== 0) throw new EngramError('WORKER_UNREACHABLE', 'the worker did not stop, so nothing was removed; run `engram worker stop` and try again');
  }
  executePurge(paths, plan);
  terminal.stdout.write(`removed ${plan.remove.length} path(s)\n`);
  return 0;
}

async function waitFor(test: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await test()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1]);
if (invokedDirectly) {
  // `engram log dump | head -1`: the reader leaving is not an error. The write that failed
  // reports it to the command, which ends quietly; this keeps the stream's own error event
  // from becoming a crash.
  process.stdout.on('error', (err) => {
    if (!isBrokenPipe(err)) throw err;
  });
  main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr })
    .then((code) => {
      process.exitCode = code;
    })
    .catch((err: unknown) => {
      if (isBrokenPipe(err)) {
        process.exitCode = 0;
        return;
      }
      // What failed and what to do; a usage mistake exits 2, anything else 1.
      process.stderr.write(`engram: ${describeForUser(err)}\n`);
      process.exitCode = isEngramError(err, 'USAGE') ? 2 : 1;
    });
}

/** The sync settings; when they are wrong the worker runs without sync and says why (worker.log). */
function syncOrNone(env: NodeJS.ProcessEnv, paths: EngramPaths, terminal: { stderr: { write(text: string): unknown } }): SyncSettings | undefined {
  try {
    return syncFromEnv(env, paths);
  } catch (err) {
    terminal.stderr.write(`engram: sync is off: ${describeError(err)}\n`);
    return undefined;
  }
}
