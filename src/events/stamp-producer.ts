import { BUILD_ID } from '../build-id.js';
import type { Envelope } from './envelope.js';

/**
 * Events this process made (a reactor's, a command's) marked as written by this build. Events
 * that already name a producer keep it: a hook's event says which hook build wrote it.
 */
export function stampProducer(events: readonly Envelope[]): Envelope[] {
  return events.map((event) => (event.producer === undefined ? { ...event, producer: BUILD_ID } : event));
}
