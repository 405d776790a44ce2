import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngramPaths } from '../paths.js';
import { recalledViewPath } from '../projections/view-paths.js';

/**
 * The memories a session was already given, as the recalled-in-session projection wrote them.
 * Nothing yet (no file) is an empty set; so is a file that does not hold a list of ids, which
 * only the projection writes: recall may then repeat a memory, and never fails over it.
 * Hook-safe: Node built-ins only.
 */
export function alreadyRecalled(paths: Pick<EngramPaths, 'views'>, session: string): Set<string> {
  if (session === '') return new Set();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(paths.views, recalledViewPath(session)), 'utf8'));
  } catch {
    return new Set();
  }
  return new Set(Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : []);
}
