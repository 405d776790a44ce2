import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { EngramError } from '../errors.js';
import { resolvePaths } from '../paths.js';
import { commandScript, MARKER } from '../hooks/hook-command.js';
import { hookTable, type HookSpec } from './hook-table.js';
import { isObject, readSettings, writeSettings, type Json, type JsonObject } from './settings-file.js';

export { hookTable, type HookEvent, type HookSpec } from './hook-table.js';

/**
 * `engram install` / `engram uninstall`: engram's hooks merged into (and taken back out of) Claude
 * Code's settings.json, touching nothing else in that file. The plugin layout (`hooks/hooks.json`)
 * registers the same `hookTable`; test/install.test.ts keeps the two from drifting.
 */

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

