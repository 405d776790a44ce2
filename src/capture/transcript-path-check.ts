import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Whether a transcript path a hook was sent may be read: only a `.jsonl` file that resolves
 * (realpath, every link followed) to a place inside Claude Code's projects directory
 * (`<CLAUDE_CONFIG_DIR>/projects`, itself resolved). A link that stays inside is followed; one
 * that leads out (to /etc/shadow, a file of another tool) is not, nor is a path outside to begin
 * with. The path in a hook's payload is outside input: it is never opened before this says yes.
 * `missing` when the path is inside but nothing is there (yet).
 */
export async function checkTranscriptPath(path: string, projectsDir: string): Promise<{ ok: true; path: string } | { ok: false; missing?: true; reason: string }> {
  if (!isAbsolute(path)) return { ok: false, reason: 'the transcript path is not absolute: not read' };
  let root: string;
  try {
    root = await realpath(projectsDir);
  } catch {
    root = resolve(projectsDir);
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && inside(resolve(path), [root, resolve(projectsDir)])) {
      return { ok: false, missing: true, reason: 'the transcript file does not exist' };
    }
    if (!inside(resolve(path), [root, resolve(projectsDir)])) return { ok: false, reason: outsideReason(projectsDir) };
    return { ok: false, reason: `the transcript path cannot be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'}): not read` };
  }
  if (!inside(real, [root])) {
    return { ok: false, reason: inside(resolve(path), [root, resolve(projectsDir)]) ? `the transcript path is a link that leads out of Claude Code's projects directory (${projectsDir}): not followed, not read` : outsideReason(projectsDir) };
  }
  if (!real.endsWith('.jsonl')) return { ok: false, reason: 'the transcript path does not resolve to a .jsonl file: not read' };
  return { ok: true, path: real };
}

function outsideReason(projectsDir: string): string {
  return `the transcript path is outside Claude Code's projects directory (${projectsDir}): not read`;
}

function inside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  });
}
