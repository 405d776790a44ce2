import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDoubleRecording } from '../src/cli/double-recording.js';
import { cliHere, hooksDir, runCli, type TempHome, useTempHomes } from './support/temp-home.js';
import { installHooks } from '../src/cli/install.js';

const home = useTempHomes();
const ID = 'engram@engram-marketplace';

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** What `/plugin install engram@engram-marketplace` leaves: the registry entry and the enable flag. */
function installPlugin(h: TempHome, options: { enabled?: boolean; registry?: 1 | 2 } = {}): void {
  const installation = { scope: 'user', installPath: join(h.paths.claude, 'plugins', 'cache', 'engram-marketplace', 'engram', '0.1.0'), version: '0.1.0', installedAt: '2026-11-30T10:00:00.000Z', lastUpdated: '2026-11-30T10:00:00.000Z' };
  writeJson(join(h.paths.claude, 'plugins', 'installed_plugins.json'), options.registry === 1
    ? { version: 1, plugins: { [ID]: installation } }
    : { version: 2, plugins: { [ID]: [installation], 'other@elsewhere': [{ ...installation, installPath: '/x' }] } });
  const settingsPath = join(h.paths.claude, 'settings.json');
  let settings: Record<string, unknown> = {};
  try {
    settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
  } catch {
    // no settings yet
  }
  writeJson(settingsPath, { ...settings, enabledPlugins: { 'other@elsewhere': true, [ID]: options.enabled ?? true } });
}

describe('double recording', () => {
  it('`engram install` refuses while the plugin is enabled, and leaves settings.json as it was', async () => {
    const h = home();
    installPlugin(h);
    const before = readFileSync(join(h.paths.claude, 'settings.json'), 'utf8');
    const refused = await runCli(['install'], h.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`engram's plugin is enabled in Claude Code (${ID})`);
    expect(readFileSync(join(h.paths.claude, 'settings.json'), 'utf8')).toBe(before);
  });

  it('doctor finds the engram plugin enabled while `engram install` hooks are in settings.json too', async () => {
    const h = home();
    expect((await runCli(['install'], h.env)).code).toBe(0);
    installPlugin(h);
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`✗ engram is installed twice: its plugin is enabled in Claude Code (${ID})`);
    expect((await runCli(['uninstall'], h.env)).code).toBe(0);
    expect((await cliHere(['doctor'], h.env)).stdout).not.toContain('twice');
  });

  it('is only reported when both are active: installed and enabled, per scope, in either registry format', async () => {
    const h = home();
    const settingsPath = join(h.paths.claude, 'settings.json');
    const check = () => findDoubleRecording({ claudeDir: h.paths.claude, settingsPath });
    installPlugin(h);
    expect(await check()).toBeUndefined(); // the plugin alone
    await installHooks({ settingsPath, hooksDir });
    expect(await check()).toContain(`(${ID})`);
    installPlugin(h, { registry: 1 });
    expect(await check()).toContain(`(${ID})`);
    installPlugin(h, { enabled: false });
    expect(await check()).toBeUndefined(); // installed, disabled
    writeJson(join(h.paths.claude, 'plugins', 'installed_plugins.json'), { version: 2, plugins: {} });
    installPlugin(h);
    writeJson(join(h.paths.claude, 'plugins', 'installed_plugins.json'), { version: 2, plugins: {} });
    expect(await check()).toBeUndefined(); // enabled, not installed: nothing to load
    // Installed for one project and enabled in that project's settings.
    const project = join(h.root, 'app');
    writeJson(join(h.paths.claude, 'plugins', 'installed_plugins.json'), { version: 2, plugins: { [ID]: [{ scope: 'project', projectPath: project, installPath: '/p' }] } });
    expect(await check()).toBeUndefined();
    writeJson(join(project, '.claude', 'settings.json'), { enabledPlugins: { [ID]: true } });
    expect(await check()).toContain(`(${ID} in ${project})`);
    writeFileSync(join(h.paths.claude, 'plugins', 'installed_plugins.json'), '{ not json');
    expect(await check()).toBeUndefined();
  });
});
