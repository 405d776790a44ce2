import { userInfo } from 'node:os';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import { teamProject, type TeamProject } from './project-identity.js';

/** The stream every engram shares through; its subjects say the scope (see syncSubject). */
export const SYNC_STREAM = 'ENGRAM';

/**
 * personal: all of one person's machines share every shareable event; team: only the memories of
 * the projects opted in (`syncTeamProjects`), as MemoryShared events.
 */
export type SyncScope = 'personal' | 'team';

/**
 * How this machine syncs: read from the environment (config.json fills it: effective-settings.ts)
 * by the worker alone. Holds where the credentials are, never the credentials: the file is read
 * when connecting and its content is kept nowhere else.
 */
export interface SyncSettings {
  scope: SyncScope;
  /** The servers, without credentials (a URL carrying `user:pass@` is refused). */
  servers: string[];
  /** The file holding the credentials, if any. */
  credentialsFile: string | undefined;
  /** A CA file for the server's certificate; implies TLS. */
  tlsCa: string | undefined;
  /** Whether to insist on TLS (a `tls://` URL or a CA file). */
  tls: boolean;
  /** The name this person's machines share: the subject's last token. */
  user: string;
  /** This machine's sync directory: its import state and status file. */
  dir: string;
  /** The team scope's projects (none in the personal scope). */
  teams: TeamProject[];
  /** The stream's replicas when this machine makes it (a cluster's servers that keep each message). */
  replicas: number;
  /** How long a silent server is waited on (syncTimeoutMs): an ack, a ping's answer; twice it past a fetch's expiry. */
  timeoutMs: number;
}

/** Where the sync keeps its state and status: `<home>/sync`. */
export function syncFolder(paths: Pick<EngramPaths, 'home'>): string {
  return join(paths.home, 'sync');
}

const SUBJECT_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The sync settings, or undefined when sync is off. Throws SETTINGS_INVALID naming the setting
 * that is wrong, never quoting a value that may hold a secret.
 */
export function syncFromEnv(env: NodeJS.ProcessEnv, paths: Pick<EngramPaths, 'home'>): SyncSettings | undefined {
  const scope = env.ENGRAM_SYNC_SCOPE || 'off';
  if (scope === 'off') return undefined;
  if (scope !== 'personal' && scope !== 'team') {
    throw new EngramError('SETTINGS_INVALID', `syncScope must be \`off\`, \`personal\` or \`team\`, not ${JSON.stringify(scope.slice(0, 20))}`);
  }
  const servers = (env.ENGRAM_SYNC_URL ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (servers.length === 0) throw new EngramError('SETTINGS_INVALID', `syncScope is \`${scope}\` but syncUrl is empty: set it to your NATS server, e.g. \`engram config set syncUrl nats://host:4222\``);
  for (const server of servers) {
    // Credentials in a URL would be printed by every status line and error that names the server.
    if (/^[a-z]+:\/\/[^/@]*@/i.test(server) || /^[^/]*@/.test(server)) {
      throw new EngramError('SETTINGS_INVALID', 'syncUrl carries credentials: put them in a file and name it with `syncCredentials` (docs/team-sync.md)');
    }
  }
  const user = env.ENGRAM_SYNC_USER || safeLoginName();
  if (!SUBJECT_TOKEN.test(user)) {
    throw new EngramError('SETTINGS_INVALID', 'syncUser must be 1 to 64 letters, digits, `-` or `_` (your login name is not: set syncUser)');
  }
  const tlsCa = env.ENGRAM_SYNC_TLS_CA || undefined;
  const teams = scope === 'team' ? teamProjectsFrom(env.ENGRAM_SYNC_TEAM_PROJECTS ?? '') : [];
  const replicas = Number(env.ENGRAM_SYNC_REPLICAS || '1');
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
    throw new EngramError('SETTINGS_INVALID', `syncReplicas must be a whole number from 1 to 5 (JetStream's limit), not ${JSON.stringify((env.ENGRAM_SYNC_REPLICAS ?? '').slice(0, 20))}`);
  }
  const timeoutMs = Number(env.ENGRAM_SYNC_TIMEOUT_MS || '5000');
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100) {
    throw new EngramError('SETTINGS_INVALID', `syncTimeoutMs must be a whole number of ms, at least 100, not ${JSON.stringify((env.ENGRAM_SYNC_TIMEOUT_MS ?? '').slice(0, 20))}`);
  }
  return {
    scope,
    servers,
    credentialsFile: env.ENGRAM_SYNC_CREDENTIALS || undefined,
    tlsCa,
    tls: tlsCa !== undefined || servers.some((s) => /^tls:\/\//i.test(s)),
    user,
    dir: syncFolder(paths),
    teams,
    replicas,
    timeoutMs,
  };
}

/** The directories opted in to the team scope (`syncTeamProjects`, separated by `:` as PATH is), each named as the team names it. */
export function teamProjectDirs(text: string): string[] {
  return [...new Set(text.split(':').map((dir) => dir.trim()).filter(Boolean))];
}

function teamProjectsFrom(text: string): TeamProject[] {
  const dirs = teamProjectDirs(text);
  if (dirs.length === 0) throw new EngramError('SETTINGS_INVALID', 'syncScope is `team` but no project is opted in: run `engram team join URL` in the project\'s directory');
  return dirs.map(teamProject);
}

function safeLoginName(): string {
  try {
    return userInfo().username.replace(/[^A-Za-z0-9_-]/g, '_');
  } catch {
    return '';
  }
}
