import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isInstalled } from './install.js';

/**
 * Claude Code's own files, as its plugin commands write them (checked against issue threads and
 * tools that read them; see anthropics/claude-code#20661 and #25856):
 * - settings.json (`~/.claude/settings.json` for the user; `<project>/.claude/settings.json` and
 *   `settings.local.json` for one project): `"enabledPlugins": { "<plugin>@<marketplace>": true }`.
 * - `<config>/plugins/installed_plugins.json`, version 2:
 *   `{ "version": 2, "plugins": { "<plugin>@<marketplace>": [{ "scope": "user" | "project" | "local",
 *   "projectPath"?, "installPath", "version", "installedAt", "lastUpdated", "gitCommitSha"? }] } }`;
 *   version 1 had one object per plugin instead of a list.
 * A plugin runs when it is installed and enabled where its scope says; either alone does nothing.
 * Unknown fields are kept out, never refused: these formats grow.
 */
const settingsSchema = z.looseObject({ enabledPlugins: z.record(z.string(), z.unknown()).optional() });
const installationSchema = z.looseObject({ scope: z.string().optional(), projectPath: z.string().optional() });
const registrySchema = z.looseObject({
  plugins: z.record(z.string(), z.union([z.array(installationSchema), installationSchema])),
});

/** The name in .claude-plugin/plugin.json. */
const PLUGIN_NAME = 'engram';

export interface DoubleRecordingOptions {
  /** Claude Code's config directory (`CLAUDE_CONFIG_DIR`, default `~/.claude`). */
  claudeDir: string;
  /** The settings.json `engram install` writes to. */
  settingsPath: string;
}

/**
 * For `engram doctor`: a finding when engram is installed twice, because engram's plugin is
 * active in Claude Code and `engram install` also put its hooks into settings.json (the plugin's
 * hooks stand down then, see settings-hooks-present.ts, and `engram install` refuses to add them
 * while the plugin is active, see refuse-double-recording.ts);
 * undefined otherwise (or when Claude Code's files cannot be read: doctor says so elsewhere).
 */
export async function findDoubleRecording(options: DoubleRecordingOptions): Promise<string | undefined> {
  const active = await activeEngramPlugins(options);
  if (active.length === 0) return undefined;
  const installed = await isInstalled(options.settingsPath).catch(() => false);
  if (installed === false) return undefined;
  return (
    `engram is installed twice: its plugin is enabled in Claude Code (${active.join(', ')}) and \`engram install\` ` +
    `also put its hooks into ${options.settingsPath}. The plugin's hooks stand down while those exist, so each event is recorded once; ` +
    `keep one: \`engram uninstall\`, or \`claude plugin disable ${active[0]!.split(' ')[0]}\``
  );
}

/** `<plugin>@<marketplace>` of each engram plugin that is both installed and enabled, with where. */
export async function activeEngramPlugins(options: Pick<DoubleRecordingOptions, 'claudeDir'>): Promise<string[]> {
  const registry = registrySchema.safeParse(await readJson(join(options.claudeDir, 'plugins', 'installed_plugins.json')));
  if (!registry.success) return [];
  const userEnabled = await enabledPlugins(join(options.claudeDir, 'settings.json'));
  const active: string[] = [];
  for (const [id, value] of Object.entries(registry.data.plugins)) {
    if (id.split('@')[0] !== PLUGIN_NAME) continue;
    for (const installation of Array.isArray(value) ? value : [value]) {
      const { scope, projectPath } = installation;
      if ((scope === 'project' || scope === 'local') && projectPath) {
        const file = join(projectPath, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json');
        if ((await enabledPlugins(file)).has(id)) active.push(`${id} in ${projectPath}`);
      } else if (userEnabled.has(id)) active.push(id);
    }
  }
  return active;
}

async function enabledPlugins(settingsPath: string): Promise<Set<string>> {
  const settings = settingsSchema.safeParse(await readJson(settingsPath));
  if (!settings.success) return new Set();
  return new Set(Object.entries(settings.data.enabledPlugins ?? {}).filter(([, on]) => on === true).map(([id]) => id));
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}
