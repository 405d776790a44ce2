#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clockFromEnv } from '../clock.js';
import { describeError, EngramError, isEngramError } from '../errors.js';
import { resolvePaths } from '../paths.js';
import { askWorker, pingWorker } from '../workers/socket/worker-client.js';
import { runWorker } from '../workers/worker.js';
import { doctor, renderFindings } from './doctor.js';
import { migrate } from './migrate.js';
import { defaultSettingsPath, installHooks, uninstallHooks } from './install.js';
import { runEngineCommand, type Terminal } from './run-engine-command.js';

const USAGE = `engram — long-term memory for Claude Code

  engram install [--settings PATH]       add engram's hooks to Claude Code's settings.json
  engram uninstall [--settings PATH]     remove exactly engram's hooks
  engram worker                          run the worker in the foreground
  engram worker --detach                 start the worker in the background
  engram worker --drain                  ingest, project and react until nothing is left, then exit
  engram worker status | stop
  engram log dump                        every event, one JSON object a line
  engram log stats [--json]              counts by type, total, spool pending and rejected
  engram rebuild [--only NAME]...        drop projections and replay the log
  engram replay --until SEQ|ISO --out DIR
                                         the projections as of that point, written under DIR
  engram migrate [--dry-run] [--discard-old]
                                         run pending log migrations (or say what they would change)
  engram doctor                          what is wrong, in plain words

Environment: ENGRAM_HOME (default ~/.engram), CLAUDE_CONFIG_DIR (default ~/.claude),
ENGRAM_NOW (pins the clock), ENGRAM_DISABLE=1 (hooks do nothing),
ENGRAM_WORKER_AUTOSTART=0 (hooks never start a worker), ENGRAM_WORKER_IDLE_MS (default 600000).
`;

export async function main(argv: string[], env: NodeJS.ProcessEnv, terminal: Terminal): Promise<number> {
  const paths = resolvePaths(env);
  const clock = clockFromEnv(env);
  const ctx = { paths, clock, terminal };
  const [command, ...rest] = argv;
  switch (command) {
    case 'install':
    case 'uninstall': {
      const { values } = parseArgs({ args: rest, options: { settings: { type: 'string' } } });
      const settingsPath = values.settings ?? defaultSettingsPath(env);
      const hooksDir = fileURLToPath(new URL('../../hooks/', import.meta.url));
      const report = command === 'install'
        ? await installHooks({ settingsPath, hooksDir, now: clock.now() })
        : await uninstallHooks({ settingsPath, now: clock.now() });
      const summary = Object.entries(report.events).map(([event, change]) => `  ${event.padEnd(20)} ${change}`).join('\n');
      terminal.stdout.write(`${report.changed ? 'updated' : 'unchanged'}: ${report.settingsPath}\n${summary}\n`);
      if (report.backupPath) terminal.stdout.write(`backup: ${report.backupPath}\n`);
      if (report.missingScripts.length > 0) {
        terminal.stderr.write(`warning: the hooks are not built yet (${report.missingScripts[0]} is missing): run \`npm run build\`\n`);
      }
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
      throw new EngramError('USAGE', 'engram log dump | engram log stats [--json]');
    }
    case 'rebuild': {
      const { values } = parseArgs({ args: rest, options: { only: { type: 'string', multiple: true } } });
      return runEngineCommand('rebuild', { only: values.only ?? [] }, ctx);
    }
    case 'replay': {
      const { values } = parseArgs({ args: rest, options: { until: { type: 'string' }, out: { type: 'string' } } });
      if (!values.until || !values.out) throw new EngramError('USAGE', 'engram replay --until SEQ|ISO --out DIR');
      return runEngineCommand('replay', { until: values.until, out: values.out }, ctx);
    }
    case 'migrate': {
      const { values } = parseArgs({
        args: rest,
        options: { 'dry-run': { type: 'boolean', default: false }, 'discard-old': { type: 'boolean', default: false } },
      });
      return migrate({ paths, clock, dryRun: values['dry-run'], discardOld: values['discard-old'], terminal });
    }
    case 'doctor': {
      const { values } = parseArgs({ args: rest, options: { settings: { type: 'string' } } });
      const findings = await doctor({ paths, clock, settingsPath: values.settings ?? defaultSettingsPath(env) });
      terminal.stdout.write(renderFindings(findings));
      return findings.every((f) => f.ok) ? 0 : 1;
    }
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

async function worker(args: string[], env: NodeJS.ProcessEnv, ctx: Parameters<typeof runEngineCommand>[2]): Promise<number> {
  const { paths, clock, terminal } = ctx;
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { detach: { type: 'boolean', default: false }, drain: { type: 'boolean', default: false } },
  });
  const sub = positionals[0];
  if (values.drain) return runEngineCommand('drain', {}, ctx);
  if (sub === 'status') {
    const pong = await pingWorker(paths);
    terminal.stdout.write(pong ? `running: pid ${pong.pid}, since ${pong.startedAt}, log head ${pong.head}\n` : 'not running\n');
    return runEngineCommand('status', {}, ctx);
  }
  if (sub === 'stop') {
    const pong = await pingWorker(paths);
    if (!pong) {
      terminal.stdout.write('not running\n');
      return 0;
    }
    await askWorker(paths, { op: 'stop' }, () => undefined);
    await waitFor(() => !processAlive(pong.pid), 15_000);
    terminal.stdout.write(`stopped worker ${pong.pid}\n`);
    return 0;
  }
  if (sub !== undefined) throw new EngramError('USAGE', `unknown worker command ${JSON.stringify(sub)}`);
  if (values.detach) {
    const running = await pingWorker(paths);
    if (running) {
      terminal.stdout.write(`already running: pid ${running.pid}\n`);
      return 0;
    }
    await mkdir(paths.logs, { recursive: true });
    const out = openSync(paths.workerLog, 'a');
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'worker'], { detached: true, stdio: ['ignore', out, out], env });
    child.unref();
    const started = await waitFor(async () => (await pingWorker(paths)) !== undefined, 15_000);
    const pong = await pingWorker(paths);
    if (!started || !pong) throw new EngramError('WORKER_UNREACHABLE', `the worker did not start; see ${paths.workerLog}`);
    terminal.stdout.write(`started: pid ${pong.pid}\n`);
    return 0;
  }
  const idle = env.ENGRAM_WORKER_IDLE_MS ? Number(env.ENGRAM_WORKER_IDLE_MS) : undefined;
  return runWorker({ paths, clock, idleMs: Number.isFinite(idle) ? idle : undefined });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitFor(test: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr })
    .then((code) => {
      process.exitCode = code;
    })
    .catch((err: unknown) => {
      process.stderr.write(`engram: ${describeError(err)}\n`);
      process.exitCode = isEngramError(err, 'USAGE') ? 2 : 1;
    });
}
