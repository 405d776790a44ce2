import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandScript, MARKER } from './hook-command.js';

/**
 * For the plugin's hooks: whether `engram install` also put engram's hooks into the user's
 * settings.json (a command ending in hook-command.ts's marker whose script still exists).
 * Then the plugin's hooks stand down, so that no event is recorded twice; a settings entry left
 * pointing at a removed install does not count, so the plugin never goes quiet for nothing.
 * Node built-ins only, no zod: it runs on every plugin hook, and anything unreadable is "no".
 */
export function settingsHooksPresent(claudeDir: string): boolean {
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(join(claudeDir, 'settings.json'), 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return false;
  }
  const hooks = (settings as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== 'object' || hooks === null) return false;
  for (const groups of Object.values(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers = (group as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(handlers)) continue;
      for (const handler of handlers) {
        const command = (handler as { command?: unknown } | null)?.command;
        if (typeof command !== 'string' || !command.endsWith(MARKER)) continue;
        const script = commandScript(command);
        if (script && existsSync(script)) return true;
      }
    }
  }
  return false;
}
