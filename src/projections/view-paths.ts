import { projectSlug } from '../paths.js';

/**
 * Where the views the SessionStart hook reads live, relative to `<home>/views`: one place for the
 * projections that write them and the hook that reads them. Hook-safe (only paths.ts).
 */

/** A project's latest sessions and its last-session line. */
export function traceViewPath(project: string): string {
  return `trace/${projectSlug(project)}.json`;
}

/**
 * A memory directory's summary block: `global.md` for the global directory (project ''), else
 * the project's slug, which starts with `-` (a cwd is absolute) and so never reads `global`.
 */
export function summaryViewPath(project: string): string {
  return `summary/${project === '' ? 'global' : projectSlug(project)}.md`;
}

/** A memory directory's lexical recall index (lexical-index.ts), named as its summary is. */
export function recallIndexViewPath(project: string): string {
  return `recall/${project === '' ? 'global' : projectSlug(project)}.bm25`;
}

/**
 * The memories recall already put in a session's context (recalled-in-session.ts), which the
 * hook's fallback and the worker read to put none in twice. A session id is Claude Code's UUID;
 * anything else it might hold is made safe for a file name.
 */
export function recalledViewPath(session: string): string {
  return `recalled/${session.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200)}.json`;
}

/** A memory directory's entity graph index (see projections/graph): `global.json` or the project's slug. */
export function graphViewPath(project: string): string {
  return `graph/${project === '' ? 'global' : projectSlug(project)}.json`;
}

/** A memory directory's skill suggestions and curator report (projections/skills), named as its summary is. */
export function skillsViewPath(project: string): string {
  return `skills/${project === '' ? 'global' : projectSlug(project)}.json`;
}

/** Hook events known lost (projections/lost-writes.ts): one small file, read by SessionStart. */
export function lostWritesViewPath(): string {
  return 'lost/hook-writes.json';
}
