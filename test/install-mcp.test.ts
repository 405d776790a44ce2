import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultClaudeJsonPath, installMcpServer, uninstallMcpServer } from '../src/cli/install-mcp.js';
import { cliPath, repoRoot, runCli, useTempHomes } from './support/temp-home.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const newHome = useTempHomes();

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-mcp-install-'));
  dirs.push(dir);
  return dir;
}

const now = new Date('2026-12-01T10:00:00.000Z');

describe('engram install: the MCP server at user scope', () => {
  it('adds engram to mcpServers keeping everything else, is idempotent, and uninstall takes back only its own', async () => {
    const path = join(scratch(), '.claude.json');
    const theirs = { numStartups: 12, projects: { '/home/dev/x': { mcpServers: { local: { command: 'x' } } } }, mcpServers: { github: { type: 'stdio', command: 'npx', args: ['-y', 'gh-mcp'] } } };
    writeFileSync(path, JSON.stringify(theirs), { mode: 0o600 });
    const first = await installMcpServer({ claudeJsonPath: path, cliPath: '/opt/engram/dist/src/cli/main.js', nodePath: '/usr/bin/node', now });
    expect(first.change).toBe('added');
    expect(first.backupPath && readFileSync(first.backupPath, 'utf8')).toBe(JSON.stringify(theirs));
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(after).toEqual({ ...theirs, mcpServers: { ...theirs.mcpServers, engram: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/engram/dist/src/cli/main.js', 'mcp'], env: {} } } });
    expect(await installMcpServer({ claudeJsonPath: path, cliPath: '/opt/engram/dist/src/cli/main.js', nodePath: '/usr/bin/node', now })).toEqual({ path, change: 'unchanged', backupPath: null });
    // Another install of engram (moved, or a new Node) replaces the entry rather than adding one.
    expect((await installMcpServer({ claudeJsonPath: path, cliPath: '/srv/engram/dist/src/cli/main.js', nodePath: '/usr/bin/node', now })).change).toBe('replaced');
    expect(JSON.parse(readFileSync(path, 'utf8')).mcpServers.engram.args).toEqual(['/srv/engram/dist/src/cli/main.js', 'mcp']);
    expect((await uninstallMcpServer({ claudeJsonPath: path, now })).change).toBe('removed');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(theirs);
    expect(await uninstallMcpServer({ claudeJsonPath: path, now })).toEqual({ path, change: 'absent', backupPath: null });
  });

  it('never takes over or removes an "engram" server that is not its own, and leaves a broken file alone', async () => {
    const dir = scratch();
    const path = join(dir, '.claude.json');
    const foreign = { mcpServers: { engram: { command: 'python', args: ['-m', 'some_other_engram'] } } };
    writeFileSync(path, JSON.stringify(foreign));
    await expect(installMcpServer({ claudeJsonPath: path, cliPath: '/opt/engram/dist/src/cli/main.js', now })).rejects.toMatchObject({ code: 'SETTINGS_INVALID' });
    expect((await uninstallMcpServer({ claudeJsonPath: path, now })).change).toBe('absent');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(foreign);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ not json');
    await expect(installMcpServer({ claudeJsonPath: broken, cliPath: '/x/cli/main.js', now })).rejects.toMatchObject({ code: 'SETTINGS_INVALID' });
    expect(readFileSync(broken, 'utf8')).toBe('{ not json');
  });

  it('is $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude.json, and `engram install` / `uninstall` write it', async () => {
    expect(defaultClaudeJsonPath({ CLAUDE_CONFIG_DIR: '/tmp/cfg' })).toBe('/tmp/cfg/.claude.json');
    expect(defaultClaudeJsonPath({})).toBe(join(homedir(), '.claude.json'));
    const h = newHome();
    const install = await runCli(['install'], h.env);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain(`MCP server engram: added in ${join(h.paths.claude, '.claude.json')}`);
    expect(JSON.parse(readFileSync(join(h.paths.claude, '.claude.json'), 'utf8')).mcpServers.engram).toEqual({ type: 'stdio', command: process.execPath, args: [cliPath, 'mcp'], env: {} });
    const uninstall = await runCli(['uninstall'], h.env);
    expect(uninstall.stdout).toContain('MCP server engram: removed');
    expect(JSON.parse(readFileSync(join(h.paths.claude, '.claude.json'), 'utf8')).mcpServers).toBeUndefined();
    expect(existsSync(join(h.paths.claude, 'settings.json'))).toBe(true);
  });

  it('is declared in the plugin manifest, run from the plugin root, with no state there', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, '.claude-plugin', 'plugin.json'), 'utf8'));
    expect(manifest.mcpServers).toEqual({ engram: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/plugin/bin/mcp.cjs'] } });
    expect(JSON.stringify(manifest.mcpServers)).not.toMatch(/ENGRAM_HOME|CLAUDE_PLUGIN_DATA/);
  });
});
