import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { hookTable, type HookEvent } from '../src/cli/hook-table.js';
import { installHooks } from '../src/cli/install.js';
import { cleanClone } from './support/clean-clone.js';
import { memoryTmpdir } from './support/memory-tmpdir.js';
import { hooksDir, repoRoot, runCommand, runProcess, useTempHomes, type ProcessResult, type TempHome } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();
const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const PLUGIN_BUILD = `${version}+0`;
type Hooks = Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>;

/**
 * What `/plugin marketplace add` and `/plugin install engram@engram` leave: the repository cloned
 * into Claude Code's plugin cache (no node_modules, no build), a data directory for the plugin,
 * the plugin registered and enabled. Hooks run with CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA
 * set, as Claude Code runs them. npm prefers its cache, which `npm ci` filled with every package
 * of the lockfile: after `npm ci` nothing is fetched (npm_config_offline=true passes too); a cache
 * that lost a package (cleaned since) fetches that one from the registry.
 */
function pluginInstall(h: TempHome): { root: string; data: string; env: NodeJS.ProcessEnv; hooks: Hooks } {
  const root = join(h.paths.claude, 'plugins', 'cache', 'engram', 'engram', version);
  const data = join(h.paths.claude, 'plugins', 'data', 'engram-engram');
  cleanClone(repoRoot, root);
  mkdirSync(data, { recursive: true });
  writeFileSync(join(h.paths.claude, 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'engram@engram': [{ scope: 'user', installPath: root, version }] } }));
  writeFileSync(join(h.paths.claude, 'settings.json'), JSON.stringify({ enabledPlugins: { 'engram@engram': true } }));
  const env = { ...h.env, CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: data, ENGRAM_WORKER_AUTOSTART: '1', npm_config_prefer_offline: 'true' };
  return { root, data, env, hooks: (JSON.parse(readFileSync(join(root, 'hooks', 'hooks.json'), 'utf8')) as { hooks: Hooks }).hooks };
}

/**
 * Runs hooks.json's command for `event` as Claude Code does (`sh -c`), timing it, and `node -e 0`
 * just before: on two cores shared by every test process Node's own start alone can take a
 * second, so what must fit the hook's budget is what the hook costs beyond that floor.
 */
async function runPluginHook(hooks: Hooks, event: HookEvent, payload: object, env: NodeJS.ProcessEnv): Promise<ProcessResult & { ms: number; floorMs: number; budgetMs: number }> {
  const floorStarted = performance.now();
  await runProcess(['-e', '0'], env);
  const floorMs = performance.now() - floorStarted;
  const { command, timeout } = hooks[event]![0]!.hooks[0]!;
  const started = performance.now();
  const result = await runCommand('sh', ['-c', command], { env, stdin: JSON.stringify({ hook_event_name: event, ...payload }) });
  return { ...result, ms: performance.now() - started, floorMs, budgetMs: timeout * 1000 };
}

describe('the plugin, from a plain clone', () => {
  it('the README\'s plugin lines name this repository\'s marketplace and plugin, and hold no placeholder shown as if it worked', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Set up and run'));
    const marketplace = JSON.parse(readFileSync(join(repoRoot, '.claude-plugin', 'marketplace.json'), 'utf8')) as { name: string; plugins: Array<{ name: string; source: string }> };
    const plugin = JSON.parse(readFileSync(join(repoRoot, '.claude-plugin', 'plugin.json'), 'utf8')) as { name: string };
    const [, name, market] = /^\/plugin install (\S+)@(\S+)$/m.exec(install)!;
    expect(market).toBe(marketplace.name);
    expect(name).toBe(plugin.name);
    expect(marketplace.plugins.map((p) => [p.name, p.source])).toEqual([[plugin.name, './']]);
    // The marketplace is the clone itself: its path, named in words right above the line.
    expect(install).toMatch(/^\/plugin marketplace add \/path\/to\/engram$/m);
    expect(install).toContain('in place of `/path/to/engram`');
    expect(install).not.toMatch(/<owner>|\.\.\//);
    expect(readme).not.toMatch(/\.\.\/shared|<owner>/);
    expect(existsSync(join(repoRoot, 'docs', 'architecture.md'))).toBe(true);
  });

  it('records a session while engram prepares its worker in the background, each hook within its budget; then the worker ingests and projects it all', { timeout: 600_000 }, async () => {
    // The bootstrap's `npm ci` writes ≈ 260 MB into the plugin's data directory: tmpfs where it has room.
    const h = home({}, { parent: memoryTmpdir(2 * 1024 ** 3) });
    const { root, data, env, hooks } = pluginInstall(h);
    expect(existsSync(join(root, 'node_modules')) || existsSync(join(root, 'dist'))).toBe(false);
    expect(Object.keys(hooks)).toEqual(hookTable.map((spec) => spec.event));
    const runtime = join(data, 'runtime', PLUGIN_BUILD);
    const cwd = join(h.root, 'project');
    const base = { session_id: 'plugin-session', cwd, transcript_path: join(h.root, 'transcript.jsonl') };

    const start = await runPluginHook(hooks, 'SessionStart', { ...base, source: 'startup' }, env);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain('engram is preparing its worker in the background');
    const runs = [start];
    runs.push(await runPluginHook(hooks, 'UserPromptSubmit', { ...base, prompt: 'the login test fails on the session cookie' }, env));
    runs.push(await runPluginHook(hooks, 'PostToolUse', { ...base, tool_name: 'Bash', tool_input: { command: 'npm test -- login' }, tool_response: { stdout: 'ok' }, tool_use_id: 't1' }, env));
    runs.push(await runPluginHook(hooks, 'Stop', { ...base, stop_hook_active: false, last_assistant_message: 'The cookie was scoped to the wrong path.' }, env));
    // Still installing: the hooks ran while npm did, and none waited for it.
    const during = JSON.parse(readFileSync(join(runtime, 'status.json'), 'utf8')) as { state: string };
    expect(during.state).toBe('preparing');
    expect(existsSync(join(runtime, 'main.js'))).toBe(false);
    runs.push(await runPluginHook(hooks, 'SessionEnd', { ...base, reason: 'prompt_input_exit' }, env));
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.ms - run.floorMs, `hook times: ${runs.map((r) => `${Math.round(r.ms)} (node -e 0: ${Math.round(r.floorMs)})`).join(', ')} ms`).toBeLessThan(run.budgetMs);
    }
    expect(readdirSync(h.paths.spoolNew)).toHaveLength(5);

    // Bounded: npm ci from npm's cache and one esbuild run, then the worker starts by itself.
    const failed = () => existsSync(join(runtime, 'status.json')) && readFileSync(join(runtime, 'status.json'), 'utf8').includes('"failed"');
    await waitUntil(() => existsSync(join(runtime, 'main.js')) || failed(), 300_000);
    expect(existsSync(join(runtime, 'main.js')), `runtime not ready: ${failed() ? readFileSync(join(runtime, 'status.json'), 'utf8') : 'still preparing after 300 s'}`).toBe(true);
    const cli = (args: string[]) => runProcess([join(runtime, 'main.js'), ...args], env);
    // The worker the bootstrap started takes the spool by itself.
    expect(await waitUntil(() => readdirSync(h.paths.spoolNew).length === 0, 60_000)).toBe(true);
    expect((await cli(['worker', '--drain'])).code).toBe(0);

    const events = (await cli(['log', 'dump'])).stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; type: string; session: string; producer?: string });
    // The hooks' five, once each, then what the worker's transcript capture made of the session's end.
    expect(events.map((e) => e.type)).toEqual(['SessionStarted', 'PromptSubmitted', 'ToolCalled', 'TurnStopped', 'SessionEnded', 'TranscriptCaptured']);
    expect(events.every((e) => e.session === 'plugin-session' && e.producer === PLUGIN_BUILD)).toBe(true);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    // Projected: the session's line in the sessions view, and doctor all ✓.
    const sessions = readdirSync(join(h.paths.views, 'sessions'), { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
    expect(sessions.map((f) => readFileSync(join(h.paths.views, 'sessions', f), 'utf8')).join('')).toContain('plugin-session');
    const doctor = await cli(['doctor']);
    expect(doctor.stdout).toContain(`✓ engram ${version} (build ${PLUGIN_BUILD})`);
    expect(doctor.stdout).toContain(`✓ the plugin's worker runtime for build ${PLUGIN_BUILD} is ready`);
    expect(doctor.stdout).toContain("✓ engram's plugin is enabled in Claude Code (engram@engram)");
    expect(doctor.stdout).not.toContain('✗');
    expect(doctor.code).toBe(0);
    // The MCP server as the manifest declares it, from the clone: it runs the prepared runtime's.
    const manifest = JSON.parse(readFileSync(join(root, '.claude-plugin', 'plugin.json'), 'utf8')) as { mcpServers: { engram: { command: string; args: string[] } } };
    const args = manifest.mcpServers.engram.args.map((arg) => arg.split('${CLAUDE_PLUGIN_ROOT}').join(root));
    const transport = new StdioClientTransport({ command: process.execPath, args, env: env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'plugin-clone-test', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_memories');
    } finally {
      await client.close();
    }
    expect((await cli(['worker', 'stop'])).code).toBe(0);
  });

  it("stands down beside `engram install`'s hooks, so nothing is recorded twice, and records again once they are gone", async () => {
    const h = home();
    const { env, hooks } = pluginInstall(h);
    const quiet = { ...env, ENGRAM_WORKER_AUTOSTART: '0' };
    const settingsPath = join(h.paths.claude, 'settings.json');
    await installHooks({ settingsPath, hooksDir });
    const payload = { session_id: 's', cwd: h.root, prompt: 'the deploy script needs the staging flag' };
    expect((await runPluginHook(hooks, 'UserPromptSubmit', payload, quiet)).code).toBe(0);
    expect(existsSync(h.paths.spoolNew) ? readdirSync(h.paths.spoolNew) : []).toHaveLength(0);
    // A settings entry pointing at an install that is gone does not count.
    const settings = readFileSync(settingsPath, 'utf8');
    writeFileSync(settingsPath, settings.split(hooksDir).join(join(h.root, 'removed-install')));
    expect((await runPluginHook(hooks, 'UserPromptSubmit', payload, quiet)).code).toBe(0);
    expect(readdirSync(h.paths.spoolNew)).toHaveLength(1);
  });
});
