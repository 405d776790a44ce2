import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettingsPath,
  hookTable,
  installHooks,
  isInstalled,
  uninstallHooks,
} from '../src/cli/install.js';
import { isEngramError } from '../src/errors.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (iso: string) => new Date(iso);

type Handler = { type: string; command: string; timeout: number; async?: boolean };
type Group = { matcher?: string; hooks: Handler[] };
type Settings = { hooks?: Record<string, Group[]> } & Record<string, unknown>;

let dir: string;
let settingsPath: string;
let hooksDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-install-'));
  settingsPath = join(dir, 'claude', 'settings.json');
  hooksDir = await makeHooksDir(join(dir, 'dist', 'hooks'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A hooks directory holding one stub per table entry, so no install reports missing scripts. */
async function makeHooksDir(path: string): Promise<string> {
  await mkdir(path, { recursive: true });
  // The stub stands in for a built hook: it records the argv it was started with.
  const stub = "require('node:fs').writeFileSync(process.env.STUB_OUT, JSON.stringify(process.argv));\n";
  for (const spec of hookTable) await writeFile(join(path, spec.file), stub);
  return path;
}

async function readSettings(path = settingsPath): Promise<Settings> {
  return JSON.parse(await readFile(path, 'utf8')) as Settings;
}

function engramEntries(settings: Settings, event: string): Array<{ group: Group; handler: Handler }> {
  return (settings.hooks?.[event] ?? []).flatMap((group) =>
    group.hooks.filter((h) => h.command.endsWith(' # engram')).map((handler) => ({ group, handler })),
  );
}

/** The settings as they would be without engram: every engram handler and engram-only group gone. */
function withoutEngram(settings: Settings): Settings {
  const copy = structuredClone(settings);
  for (const [event, groups] of Object.entries(copy.hooks ?? {})) {
    const kept = groups
      .map((g) => ({ ...g, hooks: g.hooks.filter((h) => !h.command.endsWith(' # engram')) }))
      .filter((g, i) => g.hooks.length > 0 || (groups[i]?.hooks.length ?? 0) === 0);
    if (kept.length > 0) copy.hooks![event] = kept;
    else delete copy.hooks![event];
  }
  return copy;
}

/** The script path out of `"node" "script" # engram`. */
function scriptOf(command: string): string {
  const match = /^"(?:[^"\\]|\\.)*" "((?:[^"\\]|\\.)*)" # engram$/.exec(command);
  if (!match?.[1]) throw new Error(`not an engram command: ${command}`);
  return match[1].replace(/\\(.)/g, '$1');
}

const otherSettings = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'], deny: [] },
  env: { FOO: 'bar' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/opt/guard.sh' }] }],
    PostToolUse: [
      { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'prettier --write', timeout: 30 }] },
      { matcher: 'Bash', hooks: [{ type: 'command', command: '/opt/log.sh' }] },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
    SessionEnd: [{ hooks: [{ type: 'command', command: '/opt/cleanup.sh', timeout: 2 }] }],
  },
  statusLine: { type: 'command', command: 'echo hi' },
};

describe('hookTable', () => {
  it('names one built file per Claude Code event, kebab-cased', () => {
    expect(hookTable.map((s) => s.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'PreCompact',
      'Stop',
      'SubagentStop',
      'SessionEnd',
    ]);
    for (const spec of hookTable) {
      expect(spec.file).toBe(`${spec.event.replace(/(?<=[a-z])([A-Z])/g, '-$1').toLowerCase()}.cjs`);
    }
  });

  it('uses whole seconds between 1 and 60, SessionEnd inside its shared 1.5 s budget', () => {
    for (const spec of hookTable) {
      expect(Number.isInteger(spec.timeoutSeconds)).toBe(true);
      expect(spec.timeoutSeconds).toBeGreaterThanOrEqual(1);
      expect(spec.timeoutSeconds).toBeLessThanOrEqual(60);
    }
    expect(hookTable.find((s) => s.event === 'SessionEnd')!.timeoutSeconds).toBeLessThanOrEqual(1.5);
  });

  it('matches every tool on the tool events, and only PostToolUse runs async', () => {
    for (const spec of hookTable) {
      const toolEvent = spec.event === 'PostToolUse' || spec.event === 'PostToolUseFailure';
      expect(spec.matcher).toBe(toolEvent ? '*' : undefined);
      expect(spec.async === true).toBe(spec.event === 'PostToolUse');
    }
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(hookTable)).toBe(true);
    expect(hookTable.every((spec) => Object.isFrozen(spec))).toBe(true);
  });
});

describe('installHooks', () => {
  it('creates a missing settings file and its directory', async () => {
    const report = await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T03:04:05.006Z') });

    expect(report.changed).toBe(true);
    expect(report.backupPath).toBeNull();
    expect(report.missingScripts).toEqual([]);
    expect(Object.values(report.events)).toEqual(hookTable.map(() => 'added'));
    const text = await readFile(settingsPath, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);

    const settings = await readSettings();
    expect(Object.keys(settings)).toEqual(['hooks']);
    for (const spec of hookTable) {
      const entries = engramEntries(settings, spec.event);
      expect(entries).toHaveLength(1);
      const { group, handler } = entries[0]!;
      expect(group.matcher).toBe(spec.matcher);
      expect(handler).toEqual({
        type: 'command',
        command: `"${process.execPath}" "${join(hooksDir, spec.file)}" # engram`,
        timeout: spec.timeoutSeconds,
        ...(spec.async ? { async: true } : {}),
      });
    }
  });

  it('keeps every other key and hook, in order, and backs up the previous bytes', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    const original = `${JSON.stringify(otherSettings, null, 4)}`; // other formatting, no newline
    await writeFile(settingsPath, original);

    const report = await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T03:04:05.006Z') });

    expect(report.backupPath).toBe(`${settingsPath}.engram-backup-2025-01-02T03-04-05-006Z`);
    expect(await readFile(report.backupPath!, 'utf8')).toBe(original);
    const settings = await readSettings();
    expect(withoutEngram(settings)).toEqual(otherSettings);
    expect(Object.keys(settings)).toEqual(Object.keys(otherSettings));
    // Other tools' groups keep their place; engram's own group comes after them.
    expect(settings.hooks!.PostToolUse!.slice(0, 2)).toEqual(otherSettings.hooks.PostToolUse);
    expect(settings.hooks!.PostToolUse).toHaveLength(3);
    expect(settings.hooks!.Stop![0]).toEqual(otherSettings.hooks.Stop[0]);
    expect(settings.hooks!.PreToolUse).toEqual(otherSettings.hooks.PreToolUse);
  });

  it('is idempotent: identical bytes and no second backup', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, JSON.stringify(otherSettings, null, 2));
    await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });
    const first = await readFile(settingsPath);
    const filesAfterFirst = (await readdir(dirname(settingsPath))).sort();

    const report = await installHooks({ settingsPath, hooksDir, now: at('2025-01-03T00:00:00Z') });

    expect(report.changed).toBe(false);
    expect(report.backupPath).toBeNull();
    expect(Object.values(report.events)).toEqual(hookTable.map(() => 'unchanged'));
    expect((await readFile(settingsPath)).equals(first)).toBe(true);
    expect((await readdir(dirname(settingsPath))).sort()).toEqual(filesAfterFirst);
    expect(filesAfterFirst.filter((f) => f.includes('engram-backup'))).toHaveLength(1);
  });

  it('replaces stale entries from another install path instead of adding beside them', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, JSON.stringify(otherSettings, null, 2));
    await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });
    const before = await readSettings();
    const newDir = await makeHooksDir(join(dir, 'elsewhere', 'dist', 'hooks'));

    const report = await installHooks({ settingsPath, hooksDir: newDir, now: at('2025-01-03T00:00:00Z') });

    expect(Object.values(report.events)).toEqual(hookTable.map(() => 'replaced'));
    const after = await readSettings();
    for (const spec of hookTable) {
      const entries = engramEntries(after, spec.event);
      expect(entries).toHaveLength(1);
      expect(scriptOf(entries[0]!.handler.command)).toBe(join(newDir, spec.file));
      // Replaced where it stood, not moved to the end.
      const index = (s: Settings) => s.hooks![spec.event]!.findIndex((g) => g === engramEntries(s, spec.event)[0]!.group);
      expect(index(after)).toBe(index(before));
    }
    expect(withoutEngram(after)).toEqual(otherSettings);
  });

  it('removes engram entries left in mixed groups and on events it no longer hooks', async () => {
    const stale = (script: string) => ({ type: 'command', command: `"/old/node" "/old/${script}" # engram`, timeout: 60 });
    const settings = {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }, stale('stop.cjs')] }],
        PreToolUse: [{ matcher: '*', hooks: [stale('pre-tool-use.mjs')] }],
        Notification: [{ hooks: [stale('notification.mjs'), { type: 'command', command: 'notify-send hi' }] }],
      },
    };
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, JSON.stringify(settings, null, 2));

    const report = await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });

    expect(report.events.Stop).toBe('replaced');
    expect(report.events.PreToolUse).toBe('removed');
    expect(report.events.Notification).toBe('removed');
    const after = await readSettings();
    expect(after.hooks!.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      { hooks: [expect.objectContaining({ command: `"${process.execPath}" "${join(hooksDir, 'stop.cjs')}" # engram` })] },
    ]);
    expect(after.hooks!.PreToolUse).toBeUndefined();
    expect(after.hooks!.Notification).toEqual([{ hooks: [{ type: 'command', command: 'notify-send hi' }] }]);
    expect(await isInstalled(settingsPath)).toBe(true);
  });

  it('writes absolute script paths, whatever path it is given', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await installHooks({ settingsPath, hooksDir: join('dist', 'hooks'), now: at('2025-01-02T00:00:00Z') });
    } finally {
      process.chdir(cwd);
    }
    const settings = await readSettings();
    for (const spec of hookTable) {
      const script = scriptOf(engramEntries(settings, spec.event)[0]!.handler.command);
      expect(isAbsolute(script)).toBe(true);
      expect(await realpath(script)).toBe(await realpath(join(hooksDir, spec.file)));
      expect(script.endsWith(`/dist/hooks/${spec.file}`)).toBe(true);
    }
  });

  it('writes timeouts as whole seconds from the table', async () => {
    await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });
    const settings = await readSettings();
    for (const spec of hookTable) {
      const { timeout } = engramEntries(settings, spec.event)[0]!.handler;
      expect(typeof timeout).toBe('number');
      expect(Number.isInteger(timeout)).toBe(true);
      expect(timeout).toBe(spec.timeoutSeconds);
      expect(timeout).toBeGreaterThanOrEqual(1);
      expect(timeout).toBeLessThanOrEqual(60);
    }
  });

  it('reports scripts that do not exist yet', async () => {
    const empty = join(dir, 'not-built');
    const report = await installHooks({ settingsPath, hooksDir: empty, now: at('2025-01-02T00:00:00Z') });
    expect(report.missingScripts).toEqual(hookTable.map((s) => join(empty, s.file)));
  });

  it('runs under sh -c: the quoted command with its marker starts the right file', async () => {
    // Spaces, a quote, a dollar and a backquote in both paths: each must reach node as one argument.
    const awkward = join(dir, `we ird "dir" $HOME \`x\``);
    const scripts = await makeHooksDir(join(awkward, 'dist', 'hooks'));
    const nodeLink = join(awkward, 'node bin', 'node');
    await mkdir(dirname(nodeLink), { recursive: true });
    await symlink(process.execPath, nodeLink);
    await installHooks({ settingsPath, hooksDir: scripts, nodePath: nodeLink, now: at('2025-01-02T00:00:00Z') });
    const settings = await readSettings();

    for (const spec of hookTable) {
      const { command } = engramEntries(settings, spec.event)[0]!.handler;
      const out = join(dir, `argv-${spec.file}.json`);
      const child = execFile('/bin/sh', ['-c', command], { env: { ...process.env, STUB_OUT: out } });
      child.stdin?.end(JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: spec.event }));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code).toBe(0);
      const argv = JSON.parse(await readFile(out, 'utf8')) as string[];
      expect(argv[1]).toBe(join(scripts, spec.file));
      expect(argv).toHaveLength(2); // the marker is a comment, not an argument
    }
  });

  it('refuses a file that is not JSON, leaving it and its directory untouched', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    const broken = '{ "model": "opus", ';
    await writeFile(settingsPath, broken);

    const error = await installHooks({ settingsPath, hooksDir }).catch((err: unknown) => err);

    expect(isEngramError(error, 'SETTINGS_INVALID')).toBe(true);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    expect(await readFile(settingsPath, 'utf8')).toBe(broken);
    expect(await readdir(dirname(settingsPath))).toEqual(['settings.json']);
  });

  it.each([['[]'], ['"text"'], ['null'], ['{"hooks": []}'], ['{"hooks": {"Stop": {}}}']])(
    'refuses %s as settings',
    async (content) => {
      await mkdir(dirname(settingsPath), { recursive: true });
      await writeFile(settingsPath, content);
      const error = await installHooks({ settingsPath, hooksDir }).catch((err: unknown) => err);
      expect(isEngramError(error, 'SETTINGS_INVALID')).toBe(true);
      expect(await readFile(settingsPath, 'utf8')).toBe(content);
      expect(await readdir(dirname(settingsPath))).toEqual(['settings.json']);
    },
  );

  it('keeps the permission bits, leaves no temp file, and keeps a symlinked file a symlink', async () => {
    const real = join(dir, 'dotfiles', 'settings.json');
    await mkdir(dirname(real), { recursive: true });
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(real, JSON.stringify({ env: { TOKEN: 'secret' } }, null, 2));
    await chmod(real, 0o600);
    await symlink(real, settingsPath);

    const report = await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });

    expect((await lstat(settingsPath)).isSymbolicLink()).toBe(true);
    expect((await readSettings(real)).env).toEqual({ TOKEN: 'secret' });
    expect(engramEntries(await readSettings(real), 'Stop')).toHaveLength(1);
    expect((await stat(real)).mode & 0o777).toBe(0o600);
    expect((await stat(report.backupPath!)).mode & 0o777).toBe(0o600);
    expect((await readdir(dirname(real))).filter((f) => f.includes('engram-tmp'))).toEqual([]);
    expect((await readdir(dirname(settingsPath))).filter((f) => f.includes('engram-tmp'))).toEqual([]);
  });
});

describe('uninstallHooks', () => {
  it('removes exactly engram entries and restores the original bytes', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    const original = `${JSON.stringify(otherSettings, null, 2)}\n`;
    await writeFile(settingsPath, original);
    await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });
    const installed = await readFile(settingsPath, 'utf8');

    const report = await uninstallHooks({ settingsPath, now: at('2025-01-03T00:00:00Z') });

    expect(report.changed).toBe(true);
    expect(Object.values(report.events)).toEqual(hookTable.map(() => 'removed'));
    expect(await readFile(report.backupPath!, 'utf8')).toBe(installed);
    expect(await readFile(settingsPath, 'utf8')).toBe(original);
  });

  it('drops the hooks object it leaves empty', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, JSON.stringify({ model: 'opus' }));
    await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });
    await uninstallHooks({ settingsPath, now: at('2025-01-03T00:00:00Z') });
    expect(await readSettings()).toEqual({ model: 'opus' });
  });

  it('keeps groups and arrays that were empty before and other hooks in mixed groups', async () => {
    const settings = {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }, { type: 'command', command: '"n" "s" # engram' }] }],
        Notification: [],
        PreCompact: [{ hooks: [] }],
      },
    };
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, JSON.stringify(settings));

    const report = await uninstallHooks({ settingsPath, now: at('2025-01-03T00:00:00Z') });

    expect(report.events.Stop).toBe('removed');
    expect(report.events.PreCompact).toBe('absent');
    expect(await readSettings()).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }], Notification: [], PreCompact: [{ hooks: [] }] },
    });
  });

  it('does nothing, not even a backup, when nothing of engram is there', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    const original = JSON.stringify(otherSettings); // compact: a rewrite would show
    await writeFile(settingsPath, original);

    const report = await uninstallHooks({ settingsPath });

    expect(report.changed).toBe(false);
    expect(report.backupPath).toBeNull();
    expect(Object.values(report.events)).toEqual(hookTable.map(() => 'absent'));
    expect(await readFile(settingsPath, 'utf8')).toBe(original);
    expect(await readdir(dirname(settingsPath))).toEqual(['settings.json']);
  });

  it('does nothing for a missing file', async () => {
    const report = await uninstallHooks({ settingsPath });
    expect(report.changed).toBe(false);
    await expect(stat(settingsPath)).rejects.toThrow();
  });

  it('refuses a file that is not JSON, leaving it untouched', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, 'not json');
    const error = await uninstallHooks({ settingsPath }).catch((err: unknown) => err);
    expect(isEngramError(error, 'SETTINGS_INVALID')).toBe(true);
    expect(await readFile(settingsPath, 'utf8')).toBe('not json');
  });
});

describe('isInstalled', () => {
  it('is false without a file or without engram entries, true after install', async () => {
    expect(await isInstalled(settingsPath)).toBe(false);
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, JSON.stringify(otherSettings));
    expect(await isInstalled(settingsPath)).toBe(false);
    await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });
    expect(await isInstalled(settingsPath)).toBe(true);
  });

  it('is partial when an event is missing or an entry is from another table', async () => {
    await installHooks({ settingsPath, hooksDir, now: at('2025-01-02T00:00:00Z') });
    const settings = await readSettings();
    delete settings.hooks!.Stop;
    await writeFile(settingsPath, JSON.stringify(settings));
    expect(await isInstalled(settingsPath)).toBe('partial');

    await installHooks({ settingsPath, hooksDir, now: at('2025-01-03T00:00:00Z') });
    const again = await readSettings();
    engramEntries(again, 'SessionEnd')[0]!.handler.timeout = 30;
    await writeFile(settingsPath, JSON.stringify(again));
    expect(await isInstalled(settingsPath)).toBe('partial');
  });

  it('throws SETTINGS_INVALID for an unreadable file', async () => {
    await mkdir(dirname(settingsPath), { recursive: true });
    await writeFile(settingsPath, '{');
    const error = await isInstalled(settingsPath).catch((err: unknown) => err);
    expect(isEngramError(error, 'SETTINGS_INVALID')).toBe(true);
  });
});

describe('defaultSettingsPath', () => {
  it('follows CLAUDE_CONFIG_DIR, else ~/.claude', () => {
    expect(defaultSettingsPath({ CLAUDE_CONFIG_DIR: join(dir, 'cfg') })).toBe(join(dir, 'cfg', 'settings.json'));
    expect(defaultSettingsPath({})).toBe(join(homedir(), '.claude', 'settings.json'));
  });
});

describe('the plugin layout', () => {
  type PluginHooks = { description?: string; hooks: Record<string, Group[]> };

  it('registers exactly hookTable in hooks/hooks.json', async () => {
    const plugin = JSON.parse(await readFile(join(repoRoot, 'hooks', 'hooks.json'), 'utf8')) as PluginHooks;

    expect(Object.keys(plugin.hooks)).toEqual(hookTable.map((s) => s.event));
    for (const spec of hookTable) {
      const groups = plugin.hooks[spec.event]!;
      expect(groups).toHaveLength(1);
      const expected: Group = {
        hooks: [
          {
            type: 'command',
            command: `node "\${CLAUDE_PLUGIN_ROOT}/plugin/hooks/${spec.file}"`,
            timeout: spec.timeoutSeconds,
            ...(spec.async ? { async: true } : {}),
          },
        ],
      };
      if (spec.matcher !== undefined) expected.matcher = spec.matcher;
      expect(groups[0]).toEqual(expected);
    }
  });

  it('keeps state out of the plugin root: no command sets ENGRAM_HOME', async () => {
    const plugin = JSON.parse(await readFile(join(repoRoot, 'hooks', 'hooks.json'), 'utf8')) as PluginHooks;
    const commands = Object.values(plugin.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
    expect(commands).toHaveLength(hookTable.length);
    for (const command of commands) {
      expect(command).not.toMatch(/ENGRAM_HOME|CLAUDE_PLUGIN_DATA|=/);
      expect(command.match(/\$\{CLAUDE_PLUGIN_ROOT\}/g)).toHaveLength(1);
    }
  });

  it('has a manifest named engram at the package version, which does not re-declare hooks/hooks.json', async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, '.claude-plugin', 'plugin.json'), 'utf8')) as Record<string, unknown>;
    const pkg = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(manifest.name).toBe('engram');
    expect(manifest.version).toBe(pkg.version);
    // Claude Code loads hooks/hooks.json by itself; naming it again fails the plugin load.
    expect(manifest.hooks).toBeUndefined();
  });
});
