import type { SyncSettings } from './sync-settings.js';

/** The subject a scope's events travel on: `engram.personal.<user>` (the stream holds `engram.>`). */
export function syncSubject(settings: Pick<SyncSettings, 'scope' | 'user'>): string {
  return `engram.${settings.scope}.${settings.user}`;
}
