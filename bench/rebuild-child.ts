// Rebuilds every projection of the history in argv[2] and prints one JSON line: the rebuild's
// time, the time to iterate and decode the same log, and this process's peak RSS.
import { rmSync } from 'node:fs';
import { peakRssMb } from './peak-rss.js';
import { join } from 'node:path';
import { fixedClock } from '../src/clock.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { allProjections } from '../src/projections/all-projections.js';
import { ProjectionRunner } from '../src/engine/projection-runner.js';
import { StateStore } from '../src/engine/state-store.js';

const dir = process.argv[2]!;
const log = await LevelEventLog.open(join(dir, 'log'));
let t = performance.now();
let events = 0;
for await (const batch of log.read({ batchSize: 1000 })) events += batch.length;
const decodeMs = performance.now() - t;
const stateDir = join(dir, 'rebuild-state');
rmSync(stateDir, { recursive: true, force: true });
const store = await StateStore.open(stateDir, { now: () => new Date() });
const runner = new ProjectionRunner({
  log,
  catalog: defaultCatalog(),
  store,
  projections: allProjections({ views: join(dir, 'rebuild-views'), claude: join(dir, 'rebuild-claude') }),
  clock: fixedClock(new Date()),
});
await runner.start();
t = performance.now();
await runner.rebuild();
const rebuildMs = performance.now() - t;
await store.close();
await log.close();
const peakRss = peakRssMb();
process.stdout.write(`${JSON.stringify({ events, rebuildMs, decodeMs, peakRssMb: peakRss })}\n`);
