#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clockFromEnv } from '../clock.js';
import { describeForUser, EngramError, isEngramError } from '../errors.js';
import { resolvePaths } from '../paths.js';
import type { CliCommand, CliContext } from './cli-context.js';
import { isBrokenPipe } from './is-broken-pipe.js';
import type { EngineCommandContext, Terminal } from './run-engine-command.js';
import { USAGE, usageOf } from './usage.js';

export { usageOf };

// The bin: a table of commands, each loaded when it runs (issue 22). `engram --help` loads
// this file and usage.ts; a command the worker answers loads its parser and the socket client,
// never LevelDB, LanceDB, the model or the engine (run-engine-command.ts loads those only when
// no worker answers).
const engine = async (): Promise<CliCommand> => (await import('./engine-cli.js')).engineCli;
const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  install: async () => (await import('./install-cli.js')).installCli,
  uninstall: async () => (await import('./install-cli.js')).installCli,
  worker: async () => (await import('./worker-cli.js')).workerCli,
  log: engine,
  rebuild: engine,
  replay: engine,
  migrate: engine,
  import: engine,
  reconcile: engine,
  maintain: engine,
  backfill: engine,
  distill: engine,
  graph: engine,
  routes: engine,
  memories: async () => async (_command, rest, { ctx }) => (await import('./memories-cli.js')).memoriesCli(rest, ctx),
  skills: async () => async (_command, rest, { ctx }) => (await import('./skills-cli.js')).skillsCli(rest, ctx),
  query: async () => async (_command, rest, { paths, clock, env, terminal }) => (await import('./query-cli.js')).queryCli(rest, { paths, clock, env, terminal }),
  // The MCP SDK: no other command pays for it.
  mcp: async () => async (_command, rest, { paths, env, terminal }) =>
    (await import('./mcp-cli.js')).mcpCli(rest, { paths, env, stdin: process.stdin, stdout: terminal.stdout, stderr: terminal.stderr }),
  ui: async () => async (_command, rest, { env, ctx, terminal }) => {
    const [{ uiCli }, { worker }] = await Promise.all([import('./ui-cli.js'), import('./worker-cli.js')]);
    return uiCli(rest, ctx, () => worker(['--detach'], env, { ...ctx, terminal: { stdout: terminal.stderr, stderr: terminal.stderr } }));
  },
  config: async () => async (_command, rest, { given, ctx }) => (await import('./config-cli.js')).configCli(rest, { ...ctx, env: given }),
  sync: async () => async (_command, rest, { ctx }) => (await import('./sync-cli.js')).syncCli(rest, ctx),
  team: async () => async (_command, rest, { given, ctx }) => (await import('./team-cli.js')).teamCli(rest, { ...ctx, env: given }),
  doctor: async () => async (_command, rest, { paths, clock, env, terminal, configProblem }) => {
    const { values } = parseArgs({ args: rest, options: { settings: { type: 'string' } } });
    const [{ doctor, renderFindings }, { defaultSettingsPath }] = await Promise.all([import('./doctor.js'), import('./install.js')]);
    const findings = await doctor({ paths, clock, settingsPath: values.settings ?? defaultSettingsPath(env), env, configProblem });
    terminal.stdout.write(renderFindings(findings));
    return findings.every((f) => f.ok) ? 0 : 1;
  },
};

/** Commands that answer whatever config.json holds. */
const WITHOUT_CONFIG = ['--help', '-h', 'help', '--version', '-V', 'version', undefined];

export async function main(argv: string[], given: NodeJS.ProcessEnv, terminal: Terminal): Promise<number> {
  const paths = resolvePaths(given);
  const [command, ...rest] = argv;
  // Every setting as this process and the worker read it: the environment, then config.json.
  // `config` works on the file as it is; `doctor` reports a file it cannot read; help and the
  // version print whatever it holds, so they do not read it.
  let configProblem: unknown;
  let env = given;
  if (command !== 'config' && !WITHOUT_CONFIG.includes(command)) {
    try {
      env = (await import('../config/effective-settings.js')).withConfig(given, paths);
    } catch (err) {
      if (command !== 'doctor') throw err;
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

async function run(command: string | undefined, rest: string[], cli: CliContext): Promise<number> {
  switch (command) {
    case '--version':
    case '-V':
    case 'version':
      cli.terminal.stdout.write(`${(await import('../version.js')).describeVersion()}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      cli.terminal.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) throw new EngramError('USAGE', `unknown command ${JSON.stringify(command)}; see \`engram help\``);
  return (await load())(command, rest, cli);
}

/** The bin: `engram ARGV` with this process's streams, its exit code set when it ends. */
export function runAsBin(argv: string[]): Promise<void> {
  // `engram log dump | head -1`: the reader leaving is not an error. The write that failed
  // reports it to the command, which ends quietly; this keeps the stream's own error event
  // from becoming a crash.
  process.stdout.on('error', (err) => {
    if (!isBrokenPipe(err)) throw err;
  });
  return main(argv, process.env, { stdout: process.stdout, stderr: process.stderr })
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

// Run as `node main.js` (the worker is started so); the bin users run is front-end.ts's bundle.
const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1]);
if (invokedDirectly) void runAsBin(process.argv.slice(2));
