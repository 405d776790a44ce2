import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { EngramError } from '../errors.js';
import { isObject, readSettings, writeSettings, type JsonObject } from './settings-file.js';

/** The name engram's MCP server has in Claude Code (its tools show as `mcp__engram__…`). */
export const MCP_SERVER_NAME = 'engram';

/**
 * Where Claude Code keeps user-scope MCP servers (`claude mcp add --scope user`): the top-level
 * `mcpServers` of `$CLAUDE_CONFIG_DIR/.claude.json` when that variable is set, else of
 * `~/.claude.json` (beside `~/.claude/`, not in it).
 */
export function defaultClaudeJsonPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? join(resolve(env.CLAUDE_CONFIG_DIR), '.claude.json') : join(homedir(), '.claude.json');
}

export interface McpInstallReport {
  path: string;
  change: 'added' | 'replaced' | 'unchanged' | 'removed' | 'absent';
  /** The previous content, saved beside the file; null when nothing was written or no file existed. */
  backupPath: string | null;
}

/**
 * Registers `engram mcp` as a user-scope stdio server in Claude Code's `.claude.json`, touching
 * nothing else in that file (Claude Code keeps much of its own state there). Idempotent; an
 * `engram` entry that runs another install's CLI is replaced, one that is not engram's is refused.
 */
export async function installMcpServer(options: { claudeJsonPath: string; cliPath: string; nodePath?: string; now?: Date }): Promise<McpInstallReport> {
  const path = resolve(options.claudeJsonPath);
  const current = await readSettings(path);
  const config = current?.settings ?? {};
  const servers = serversOf(config, path);
  const wanted: JsonObject = { type: 'stdio', command: options.nodePath ?? process.execPath, args: [resolve(options.cliPath), 'mcp'], env: {} };
  const before = servers[MCP_SERVER_NAME];
  if (before !== undefined && !isEngrams(before)) {
    throw new EngramError('SETTINGS_INVALID', `${path} already has an MCP server called "${MCP_SERVER_NAME}" that is not engram's; remove it with \`claude mcp remove ${MCP_SERVER_NAME} -s user\` first`);
  }
  if (before !== undefined && JSON.stringify(before) === JSON.stringify(wanted)) return { path, change: 'unchanged', backupPath: null };
  servers[MCP_SERVER_NAME] = wanted;
  config.mcpServers = servers;
  const backupPath = await writeSettings(path, config, current, options.now);
  return { path, change: before === undefined ? 'added' : 'replaced', backupPath };
}

/** Removes engram's user-scope MCP server, and nothing else; an `mcpServers` left empty goes too. */
export async function uninstallMcpServer(options: { claudeJsonPath: string; now?: Date }): Promise<McpInstallReport> {
  const path = resolve(options.claudeJsonPath);
  const current = await readSettings(path);
  if (!current) return { path, change: 'absent', backupPath: null };
  const config = current.settings;
  const servers = serversOf(config, path);
  if (servers[MCP_SERVER_NAME] === undefined || !isEngrams(servers[MCP_SERVER_NAME])) return { path, change: 'absent', backupPath: null };
  delete servers[MCP_SERVER_NAME];
  if (Object.keys(servers).length === 0) delete config.mcpServers;
  const backupPath = await writeSettings(path, config, current, options.now);
  return { path, change: 'removed', backupPath };
}

function serversOf(config: JsonObject, path: string): JsonObject {
  const servers = config.mcpServers ?? {};
  if (!isObject(servers)) throw new EngramError('SETTINGS_INVALID', `${path}: mcpServers is not an object`);
  return servers;
}

/** An entry engram wrote: it runs some install's `cli/main.js mcp`. */
function isEngrams(entry: unknown): boolean {
  if (!isObject(entry) || !Array.isArray(entry.args)) return false;
  const args = entry.args;
  return args.length === 2 && args[1] === 'mcp' && typeof args[0] === 'string' && /[/\\]cli[/\\]main\.js$/.test(args[0]);
}
