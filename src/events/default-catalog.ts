import { upcasters } from '../../migrations/index.js';
import { EventCatalog, knownDefinitions } from './catalog.js';

/** The catalog of this build: every declared event type and every upcaster in migrations/. */
export function defaultCatalog(): EventCatalog {
  return new EventCatalog(knownDefinitions, upcasters);
}
