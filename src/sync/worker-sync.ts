import type { EventCatalog } from '../events/catalog.js';
import type { EventLog } from '../log/event-log.js';
import type { Reactor } from '../engine/reactor.js';
import { syncForwarder } from './sync-forwarder.js';
import { SyncImporter } from './sync-importer.js';
import { SyncLink, type SyncLinkOptions } from './sync-link.js';
import type { SyncSettings } from './sync-settings.js';
import { teamShareReactor } from './team-share.js';

/** The sync as the worker wires it: a reactor for the engine, an importer started beside it. */
export interface WorkerSync {
  readonly link: SyncLink;
  /** For Engine.open's reactors: the forwarder. */
  readonly reactors: readonly Reactor[];
  /** For Engine.open: which events the importer brought in from another machine. */
  elsewhere(ids: readonly string[]): Promise<boolean[]>;
  /** Once the worker holds the log and has checked it: opens the import state and starts importing. */
  start(engine: { log: EventLog; catalog: EventCatalog }, onImported: () => void): Promise<void>;
  /** Stops importing (before the reactors settle), so nothing appends while the log closes. */
  stopImporting(): Promise<void>;
  /** Closes the connection and the import state (after the reactors settled). */
  close(): Promise<void>;
}

export function workerSync(settings: SyncSettings, options: SyncLinkOptions): WorkerSync {
  const link = new SyncLink(settings, options);
  let importer: SyncImporter | undefined;
  return {
    link,
    // The team scope shares memories as MemoryShared events first; the forwarder sends only those.
    reactors: settings.scope === 'team' ? [teamShareReactor(settings.teams, settings.user), syncForwarder(link)] : [syncForwarder(link)],
    // Before the import state opens nothing was imported in this run, and the reactors wait for it (worker.ts).
    elsewhere: (ids) => (link.opened ? link.store.imported(ids) : Promise.resolve(ids.map(() => false))),
    async start(engine, onImported) {
      await link.open();
      importer = new SyncImporter({ link, log: engine.log, catalog: engine.catalog, onImported });
      importer.start();
    },
    async stopImporting() {
      await importer?.stop();
    },
    close: () => link.close(),
  };
}
