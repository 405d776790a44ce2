import type { SyncSettings } from './sync-settings.js';
import type { TeamProject } from './project-identity.js';

/** The subject a scope's events travel on: `engram.personal.<user>` (the stream holds `engram.>`). */
export function syncSubject(settings: Pick<SyncSettings, 'scope' | 'user'>): string {
  return `engram.${settings.scope}.${settings.user}`;
}

/** A team project's subject: `engram.team.<token>`, the token a hash of the project's id (no repository name on the wire's subjects). */
export function teamSubject(project: Pick<TeamProject, 'token'>): string {
  return `engram.team.${project.token}`;
}
