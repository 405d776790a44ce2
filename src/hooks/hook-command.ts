/**
 * How engram's settings hooks are written (install.ts) and recognised (install.ts, and the
 * plugin's hooks, which stand down beside them): Node built-ins only, since hooks import it.
 *
 * A trailing shell comment marks a command as engram's own: `sh -c` (and Git Bash on Windows)
 * ignores everything from an unquoted ` #` to the end of the line, so it costs nothing at run time,
 * and it survives a change of install path or Node binary, which is what lets a reinstall replace
 * stale entries instead of adding beside them.
 */
export const MARKER = ' # engram';

/** The script path of a command engram wrote: the second double-quoted word. */
export function commandScript(command: unknown): string | undefined {
  if (typeof command !== 'string') return undefined;
  const match = /^"(?:[^"\\]|\\.)*" "((?:[^"\\]|\\.)*)"/.exec(command);
  return match?.[1]?.replace(/\\(.)/g, '$1');
}
