import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '../src/clock.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { Envelope } from '../src/events/envelope.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { allProjections } from '../src/projections/all-projections.js';
import { ProjectionRunner } from '../src/engine/projection-runner.js';
import { StateStore } from '../src/engine/state-store.js';

/**
 * Loads a dumped log (`engram log dump` output) into a fresh LevelDB log under `workDir` and
 * runs every projection over it, writing under `workDir/views` and `workDir/claude`.
 */
export async function projectFixtureLog(ndjsonPath: string, workDir: string): Promise<{ views: string; claude: string }> {
  mkdirSync(workDir, { recursive: true });
  const events: Envelope[] = readFileSync(ndjsonPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { seq: _seq, ...event } = JSON.parse(line) as Envelope & { seq: number };
      return event;
    });
  const log = await LevelEventLog.open(join(workDir, 'log'));
  const store = await StateStore.open(join(workDir, 'state'), { now: () => new Date(0) });
  try {
    await log.append(events);
    const roots = { views: join(workDir, 'views'), claude: join(workDir, 'claude') };
    const runner = new ProjectionRunner({
      log,
      catalog: defaultCatalog(),
      store,
      projections: allProjections(roots),
      clock: fixedClock(new Date(0)),
    });
    await runner.start();
    await runner.catchUp();
    return roots;
  } finally {
    await store.close();
    await log.close();
  }
}
