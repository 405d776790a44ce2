import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { systemClock } from '../clock.js';
import { EngramError } from '../errors.js';
import { resolvePaths } from '../paths.js';

/**
 * `engram install` / `engram uninstall`: engram's hooks merged into (and taken back out of) Claude
 * Code's settings.json, touching nothing else in that file. The plugin layout (`hooks/hooks.json`)
 * registers the same `hookTable`; test/install.test.ts keeps the two from drifting.
 */

export type HookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PreCompact'
  | 'Stop'
  | 'SubagentStop'
  | 'SessionEnd';

export interface HookSpec {
  readonly event: HookEvent;
  /** The built hook, `dist/hooks/<file>`. */
  readonly file: string;
  /** Claude Code counts hook timeouts in seconds, not milliseconds. */
  readonly timeoutSeconds: number;
  /** Tool events only; `*` is every tool. */
  readonly matcher?: string;
  readonly async?: boolean;
}

/**
 * Each hook only appends one spool file (~0.1 s, DESIGN.md "Performance budgets"), so a timeout is a
 * ceiling for a hook that hangs (cold disk, a stuck worker socket), never a budget to spend: short
 * enough that a hang costs the user seconds, not Claude Code's 600-second default, and ~50× what a
 * healthy hook takes.
 */
export const hookTable: readonly HookSpec[] = Object.freeze(
  ([
    // Once per session (and after compaction); prints the summary block and may start the worker.
    { event: 'SessionStart', file: 'session-start.cjs', timeoutSeconds: 10 },
    // Runs before every answer, so its ceiling is latency the user would feel on each prompt.
    { event: 'UserPromptSubmit', file: 'user-prompt-submit.cjs', timeoutSeconds: 5 },
    // Engram only records a tool call and never decides anything about it, so the hook can run off
    // the agent's path: async saves a Node start per tool call. It still lands long before the next
    // event it could be confused with, since every tool call is followed by a model round trip.
    { event: 'PostToolUse', file: 'post-tool-use.cjs', timeoutSeconds: 5, matcher: '*', async: true },
    { event: 'PostToolUseFailure', file: 'post-tool-use-failure.cjs', timeoutSeconds: 5, matcher: '*' },
    { event: 'PreCompact', file: 'pre-compact.cjs', timeoutSeconds: 5 },
    { event: 'Stop', file: 'stop.cjs', timeoutSeconds: 5 },
    { event: 'SubagentStop', file: 'subagent-stop.cjs', timeoutSeconds: 5 },
    // All SessionEnd hooks share a 1.5 s budget, which Claude Code raises to the largest SessionEnd
    // timeout in settings (up to 60 s). 1 s fits inside the budget instead of stretching everyone's
    // exit; a SessionEnd lost to it is caught up later as an idle session.
    { event: 'SessionEnd', file: 'session-end.cjs', timeoutSeconds: 1 },
  ] satisfies HookSpec[]).map((spec): HookSpec => Object.freeze(spec)),
);

/**
 * What one event's entries went through: `added`, `replaced` (a stale or duplicated engram entry was
 * rewritten) or `unchanged` on install; `removed` or `absent` on uninstall. Install also reports
 * `removed` for an event engram no longer hooks but an older install did.
 */
export type HookChange = 'added' | 'replaced' | 'unchanged' | 'removed' | 'absent';

export interface InstallReport {
  /** Absolute path of the settings file. */
  settingsPath: string;
  /** True when the settings file was written. */
  changed: boolean;
  /** The previous content, saved beside the settings file; null when nothing was written or no file existed. */
  backupPath: string | null;
  /** Per event: every event of `hookTable` in its order, then any other event engram had entries on. */
  events: Record<string, HookChange>;
  /**
   * Scripts the installed commands point at that do not exist (always empty for uninstall). The
   * hooks are installed anyway; the caller should say so, since every such hook would print an
   * error line into the session until the scripts are built.
   */
  missingScripts: string[];
}

export interface InstallOptions {
  /** Claude Code's settings.json; see `defaultSettingsPath`. */
  settingsPath: string;
  /** The directory holding the built hooks (`dist/hooks`); made absolute. */
  hooksDir: string;
  /** The Node binary the hooks run with. Default `process.execPath`, so hooks don't depend on Claude Code's PATH. */
  nodePath?: string;
  /** Names the backup. Default the system clock. */
  now?: Date;
}

export interface UninstallOptions {
  /** Claude Code's settings.json; see `defaultSettingsPath`. */
  settingsPath: string;
  /** Names the backup. Default the system clock. */
  now?: Date;
}

/**
 * A trailing shell comment marks a command as engram's own: `sh -c` (and Git Bash on Windows)
 * ignores everything from an unquoted ` #` to the end of the line, so it costs nothing at run time,
 * and it survives a change of install path or Node binary, which is what lets a reinstall replace
 * stale entries instead of adding beside them.
 */
const MARKER = ' # engram';

/** `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`: the user-wide settings. */
export function defaultSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(resolvePaths(env).claude, 'settings.json');
}

/**
 * Merges engram's hooks into settings.json (created, with its directory, when missing). Every other
 * key and every other hook, including other tools' hooks on the same events, is kept as it was.
 * Idempotent: when engram's entries are already exactly right nothing is written and no backup is
 * made. Throws SETTINGS_INVALID, leaving the file untouched, when it is not a JSON object.
 */
export async function installHooks(options: InstallOptions): Promise<InstallReport> {
  const settingsPath = resolve(options.settingsPath);
  const hooksDir = resolve(options.hooksDir);
  const nodePath = absoluteIfPath(options.nodePath ?? process.execPath);
  const current = await readSettings(settingsPath);
  const settings = current?.settings ?? {};
  const hooks = hooksObject(settings, settingsPath);
  const events: Record<string, HookChange> = {};
  const missingScripts: string[] = [];

  for (const spec of hookTable) {
    const scriptPath = join(hooksDir, spec.file);
    if (!(await exists(scriptPath))) missingScripts.push(scriptPath);
    const groups = eventGroups(hooks, spec.event, settingsPath);
    const next = withEngramGroup(groups, desiredGroup(spec, nodePath, scriptPath));
    const hadEngram = groups.some((group) => engramHandlers(group).length > 0);
    if (sameJson(groups, next)) events[spec.event] = 'unchanged';
    else {
      events[spec.event] = hadEngram ? 'replaced' : 'added';
      hooks[spec.event] = next;
    }
  }
  removeStrayEngramEntries(hooks, events, settingsPath);

  const changed = Object.values(events).some((change) => change !== 'unchanged');
  if (!changed) return { settingsPath, changed, backupPath: null, events, missingScripts };
  if (!('hooks' in settings)) settings.hooks = hooks;
  const backupPath = await writeSettings(settingsPath, settings, current, options.now);
  return { settingsPath, changed, backupPath, events, missingScripts };
}

/**
 * Removes exactly engram's entries (by their marker). A matcher group or event array that only
 * held engram's entries goes with them, and so does a `hooks` object left empty; everything else
 * is untouched. No write and no backup when there is nothing of engram's to remove.
 */
export async function uninstallHooks(options: UninstallOptions): Promise<InstallReport> {
  const settingsPath = resolve(options.settingsPath);
  const events: Record<string, HookChange> = {};
  for (const spec of hookTable) events[spec.event] = 'absent';
  const current = await readSettings(settingsPath);
  if (!current) return { settingsPath, changed: false, backupPath: null, events, missingScripts: [] };

  const { settings } = current;
  const hooks = hooksObject(settings, settingsPath);
  removeStrayEngramEntries(hooks, events, settingsPath, () => true);

  const changed = Object.values(events).some((change) => change === 'removed');
  if (!changed) return { settingsPath, changed, backupPath: null, events, missingScripts: [] };
  if ('hooks' in settings && Object.keys(hooks).length === 0) delete settings.hooks;
  const backupPath = await writeSettings(settingsPath, settings, current, options.now);
  return { settingsPath, changed, backupPath, events, missingScripts: [] };
}

/**
 * For `engram doctor`: true when every event of `hookTable` has exactly one engram entry shaped as
 * the table says (script name, timeout, matcher, async), false when there is none at all, and
 * `partial` otherwise (some events missing, duplicates, or an entry from an older table). Whether
 * the scripts exist is for the caller to check. Throws SETTINGS_INVALID for an unreadable file.
 */
export async function isInstalled(settingsPath: string): Promise<boolean | 'partial'> {
  const path = resolve(settingsPath);
  const current = await readSettings(path);
  if (!current) return false;
  const hooks = hooksObject(current.settings, path);
  let found = 0;
  let matching = 0;
  for (const event of Object.keys(hooks)) {
    const entries = eventGroups(hooks, event, path).flatMap((group) =>
      engramHandlers(group).map((handler) => ({ group, handler })),
    );
    found += entries.length;
    const spec = hookTable.find((candidate) => candidate.event === event);
    const only = entries.length === 1 ? entries[0] : undefined;
    if (spec && only && matchesSpec(spec, only.group, only.handler)) matching++;
  }
  if (found === 0) return false;
  return matching === hookTable.length && found === hookTable.length ? true : 'partial';
}

type Json = null | boolean | number | string | Json[] | JsonObject;
type JsonObject = { [key: string]: Json };

interface CurrentSettings {
  settings: JsonObject;
  /** The bytes as read, for the backup. */
  raw: Buffer;
  /** Permission bits, kept on the rewrite and the backup: settings can hold tokens under `env`. */
  mode: number;
}

async function readSettings(settingsPath: string): Promise<CurrentSettings | null> {
  let raw: Buffer;
  try {
    raw = await readFile(settingsPath);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    throw new EngramError('SETTINGS_INVALID', `cannot read ${settingsPath}`, { cause: err });
  }
  let parsed: unknown;
  try {
    // A BOM is legal in a UTF-8 file some Windows editors write, and JSON.parse refuses it.
    parsed = JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new EngramError('SETTINGS_INVALID', `${settingsPath} is not valid JSON`, { cause: err });
  }
  if (!isObject(parsed)) {
    throw new EngramError('SETTINGS_INVALID', `${settingsPath} does not hold a JSON object`);
  }
  const { mode } = await stat(settingsPath);
  return { settings: parsed, raw, mode: mode & 0o777 };
}

function hooksObject(settings: JsonObject, settingsPath: string): JsonObject {
  const hooks = settings.hooks;
  if (hooks === undefined) return {};
  if (!isObject(hooks)) {
    throw new EngramError('SETTINGS_INVALID', `"hooks" in ${settingsPath} is not an object`);
  }
  return hooks;
}

function eventGroups(hooks: JsonObject, event: string, settingsPath: string): Json[] {
  const groups = hooks[event];
  if (groups === undefined) return [];
  if (!Array.isArray(groups)) {
    throw new EngramError('SETTINGS_INVALID', `"hooks.${event}" in ${settingsPath} is not an array`);
  }
  return groups;
}

/**
 * The event's groups with engram's handlers taken out and engram's own group put in: in place of
 * the first group that held only engram handlers (so a reinstall doesn't move it), else at the end.
 * A group that also holds other hooks keeps them and loses only engram's.
 */
function withEngramGroup(groups: Json[], desired: JsonObject): Json[] {
  const next: Json[] = [];
  let placed = false;
  for (const group of groups) {
    const ours = engramHandlers(group);
    if (ours.length === 0 || !isObject(group) || !Array.isArray(group.hooks)) {
      next.push(group);
      continue;
    }
    const others = group.hooks.filter((handler) => !isEngramHandler(handler));
    if (others.length > 0) next.push({ ...group, hooks: others });
    else if (!placed) {
      next.push(desired);
      placed = true;
    }
  }
  if (!placed) next.push(desired);
  return next;
}

/**
 * Takes engram's handlers out of every event `include` selects (by default, events `hookTable`
 * doesn't own: leftovers of an older install). Groups and event arrays that held only engram's
 * handlers go too; ones that were already empty stay, as everything not engram's does.
 */
function removeStrayEngramEntries(
  hooks: JsonObject,
  events: Record<string, HookChange>,
  settingsPath: string,
  include: (event: string) => boolean = (event) => !hookTable.some((spec) => spec.event === event),
): void {
  for (const event of Object.keys(hooks)) {
    if (!include(event)) continue;
    const groups = eventGroups(hooks, event, settingsPath);
    if (!groups.some((group) => engramHandlers(group).length > 0)) continue;
    const next: Json[] = [];
    for (const group of groups) {
      if (engramHandlers(group).length === 0 || !isObject(group) || !Array.isArray(group.hooks)) {
        next.push(group);
        continue;
      }
      const others = group.hooks.filter((handler) => !isEngramHandler(handler));
      if (others.length > 0) next.push({ ...group, hooks: others });
    }
    if (next.length > 0) hooks[event] = next;
    else delete hooks[event];
    events[event] = 'removed';
  }
}

function desiredGroup(spec: HookSpec, nodePath: string, scriptPath: string): JsonObject {
  const handler: JsonObject = {
    type: 'command',
    command: `${shellQuote(nodePath)} ${shellQuote(scriptPath)}${MARKER}`,
    timeout: spec.timeoutSeconds,
  };
  if (spec.async) handler.async = true;
  return spec.matcher === undefined ? { hooks: [handler] } : { matcher: spec.matcher, hooks: [handler] };
}

function matchesSpec(spec: HookSpec, group: Json, handler: JsonObject): boolean {
  if (!isObject(group)) return false;
  const script = commandScript(handler.command);
  return (
    handler.type === 'command' &&
    script !== undefined &&
    (script === spec.file || script.endsWith(`/${spec.file}`) || script.endsWith(`${sep}${spec.file}`)) &&
    handler.timeout === spec.timeoutSeconds &&
    (handler.async === true) === (spec.async === true) &&
    (group.matcher ?? undefined) === spec.matcher
  );
}

/** The script path of a command engram wrote: the second double-quoted word. */
function commandScript(command: Json | undefined): string | undefined {
  if (typeof command !== 'string') return undefined;
  const match = /^"(?:[^"\\]|\\.)*" "((?:[^"\\]|\\.)*)"/.exec(command);
  return match?.[1]?.replace(/\\(.)/g, '$1');
}

function engramHandlers(group: Json): JsonObject[] {
  if (!isObject(group) || !Array.isArray(group.hooks)) return [];
  return group.hooks.filter(isEngramHandler);
}

function isEngramHandler(handler: Json): handler is JsonObject {
  return isObject(handler) && typeof handler.command === 'string' && handler.command.endsWith(MARKER);
}

/**
 * Double quotes for `sh -c`: inside them only `$`, backquote, `\` and `"` are special, so escaping
 * those four keeps any path (spaces, quotes, `$HOME` spelled literally) one word.
 */
function shellQuote(word: string): string {
  return `"${word.replace(/[$`"\\]/g, '\\$&')}"`;
}

function absoluteIfPath(command: string): string {
  // A bare name stays a PATH lookup; anything with a separator is a path and is made absolute.
  return isAbsolute(command) || !command.includes(sep) ? command : resolve(command);
}

/**
 * Backs up the previous content (when there was a file), then replaces the settings atomically:
 * a temp file beside the real file, synced, renamed over it. A symlinked settings.json (dotfile
 * managers do that) stays a symlink; its target is what gets replaced.
 */
async function writeSettings(
  settingsPath: string,
  settings: JsonObject,
  current: CurrentSettings | null,
  now: Date = systemClock.now(),
): Promise<string | null> {
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  // A new file gets what any editor would give it (0666 less the umask).
  const mode = current?.mode ?? 0o666;
  let backupPath: string | null = null;
  let target = settingsPath;
  if (current) {
    backupPath = await writeBackup(settingsPath, current, now);
    if ((await lstat(settingsPath)).isSymbolicLink()) target = await realpath(settingsPath);
  } else {
    await mkdir(dirname(settingsPath), { recursive: true });
  }
  const temp = `${target}.engram-tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      // open()'s mode passes through the umask; an existing file's bits are kept exactly.
      if (current) await handle.chmod(mode);
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return backupPath;
}

/** `<settings>.engram-backup-<ISO time>`, with a counter rather than ever overwriting a backup. */
async function writeBackup(settingsPath: string, current: CurrentSettings, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; ; attempt++) {
    const path = `${settingsPath}.engram-backup-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    try {
      await writeFile(path, current.raw, { flag: 'wx', mode: current.mode });
      return path;
    } catch (err) {
      if (!isErrno(err, 'EEXIST')) throw err;
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function sameJson(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}
