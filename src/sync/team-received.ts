import { contentHash } from '../content-hash.js';
import type { Envelope } from '../events/envelope.js';
import type { SyncLink } from './sync-link.js';

/**
 * A teammate's MemoryShared as this machine records it: a TeamMemoryReceived about the local
 * directory of the same project (never the sender's path: the shared event names none), with an
 * id derived from the shared event's, so a message taken in twice is stored once. The importer
 * has checked the event's schema and that its project is opted in here.
 */
export function received(event: Envelope, link: Pick<SyncLink, 'settings'>): Envelope {
  const { sharedBy, ...memory } = event.data as { sharedBy: string; projectId: string };
  const project = link.settings.teams.find((team) => team.id === memory.projectId)!;
  return {
    id: `team-received:${contentHash(event.id)}`,
    type: 'TeamMemoryReceived',
    schemaVersion: 1,
    ts: event.ts,
    session: '',
    project: project.dir,
    data: { ...memory, from: sharedBy, sharedEvent: event.id },
  };
}
