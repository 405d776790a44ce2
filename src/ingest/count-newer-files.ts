import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventCatalog } from '../events/catalog.js';
import { newerThan, readRegularFile } from './ingest.js';

/**
 * How many files in `dir` hold an event only a newer engram reads (see ingest.ts): they wait in
 * the spool rather than being rejected, and `log stats` and `doctor` say how many. Reads every
 * file, so it is for those commands, never for the ingest path.
 */
export function countNewerFiles(dir: string, catalog: EventCatalog): number {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return 0;
  }
  let newer = 0;
  for (const name of names) {
    try {
      const json = JSON.parse(readRegularFile(join(dir, name)).toString('utf8')) as { type?: unknown; schemaVersion?: unknown };
      if (typeof json.type === 'string' && typeof json.schemaVersion === 'number' && newerThan(catalog, { type: json.type, schemaVersion: json.schemaVersion })) newer++;
    } catch {
      // not an event at all: ingest rejects it; not ours to count here
    }
  }
  return newer;
}
