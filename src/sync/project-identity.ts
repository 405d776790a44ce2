import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../content-hash.js';
import { EngramError } from '../errors.js';

/** A file in a repository naming the project for the team, when its git remote will not do. */
export const PROJECT_ID_FILE = '.engram-project';

/** A project as the team scope knows it: its id on every machine, and where it is on this one. */
export interface TeamProject {
  /** Where it is on this machine (the cwd engram's events name). */
  dir: string;
  /** The same on every machine: the normalised git remote (`github.com/acme/api`) or the id file's line. */
  id: string;
  /** The subject token: a hash of the id, so a subject names no repository. */
  token: string;
}

/**
 * The project at `dir`, named as every teammate's machine names it: the first line of its
 * `.engram-project` file if there is one, else its git remote `origin` normalised (scheme, user,
 * port, `.git` and case of the host dropped: `git@github.com:acme/api.git` and
 * `https://github.com/acme/api` are one project). Never a local path.
 */
export function teamProject(dir: string): TeamProject {
  const id = idFile(dir) ?? gitRemote(dir);
  if (id === undefined) {
    throw new EngramError('SETTINGS_INVALID', `${dir} has no git remote \`origin\` and no ${PROJECT_ID_FILE} file: add one (a line your team shares, e.g. acme/payments-api) so every machine names the project alike`);
  }
  return { dir, id, token: contentHash(`engram-team:${id}`).slice(0, 20) };
}

function idFile(dir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, PROJECT_ID_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const line = text.split('\n')[0]!.trim();
  if (!/^[\x21-\x7e]{1,300}$/.test(line)) throw new EngramError('SETTINGS_INVALID', `${join(dir, PROJECT_ID_FILE)} must hold one line of 1 to 300 printable characters, no spaces`);
  return line;
}

function gitRemote(dir: string): string | undefined {
  let config: string;
  try {
    config = readFileSync(join(dir, '.git', 'config'), 'utf8');
  } catch {
    return undefined;
  }
  const section = /^\s*\[remote "origin"\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(config);
  const url = section ? /^\s*url\s*=\s*(\S+)\s*$/m.exec(section[1]!)?.[1] : undefined;
  return url === undefined ? undefined : normaliseRemote(url);
}

/** `git@host:owner/repo.git`, `ssh://git@host:22/owner/repo`, `https://user@host/owner/repo.git` → `host/owner/repo`. */
export function normaliseRemote(url: string): string {
  let rest = url.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  else rest = rest.replace(/^([^/@]+@)?([^/:]+):/, '$1$2/');
  rest = rest.replace(/^[^/@]*@/, '');
  const slash = rest.indexOf('/');
  const host = (slash < 0 ? rest : rest.slice(0, slash)).replace(/:\d+$/, '').toLowerCase();
  const path = slash < 0 ? '' : rest.slice(slash + 1);
  return `${host}/${path.replace(/\.git\/?$/, '').replace(/\/+$/, '')}`;
}
