import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EngramError } from '../errors.js';
import { liveWorker } from '../launch/live-worker.js';
import type { CliCommand } from './cli-context.js';
import { defaultClaudeJsonPath, installMcpServer, MCP_SERVER_NAME, uninstallMcpServer } from './install-mcp.js';
import { defaultSettingsPath, installHooks, uninstallHooks } from './install.js';
import { describePurge, executePurge, planPurge } from './purge.js';
import { refuseDoubleRecording } from './refuse-double-recording.js';
import type { EngineCommandContext } from './run-engine-command.js';
import { stopWorker } from './worker-cli.js';

/** `engram install` and `engram uninstall [--purge]`: the hooks in settings.json and the MCP server. */
export const installCli: CliCommand = async (command, rest, { env, paths, clock, terminal, ctx }) => {
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
    ? await installMcpServer({ claudeJsonPath, cliPath: fileURLToPath(new URL('./main.js', import.meta.url)), now: clock.now() })
    : await uninstallMcpServer({ claudeJsonPath, now: clock.now() });
  terminal.stdout.write(`MCP server ${MCP_SERVER_NAME}: ${mcp.change} in ${mcp.path}\n`);
  if (mcp.backupPath) terminal.stdout.write(`backup: ${mcp.backupPath}\n`);
  if (report.missingScripts.length > 0) {
    terminal.stderr.write(`warning: the hooks are not built yet (${report.missingScripts[0]} is missing): run \`npm run build\`\n`);
  }
  if (command === 'uninstall' && values.purge) return purge(ctx, values.yes);
  return 0;
};

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
