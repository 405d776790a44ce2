// Backfills the Claude Code config directory in argv[2] into a fresh log at argv[3] (no
// projections: what is measured is reading, deriving and appending) and prints one JSON line:
// the run's time, events appended, bytes read and this process's peak RSS.
import { peakRssMb } from './peak-rss.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { runBackfill } from '../src/backfill/run-backfill.js';

const [claudeDir, logDir] = process.argv.slice(2) as [string, string];
const log = await LevelEventLog.open(logDir);
const t = performance.now();
const tally = await runBackfill(
  { claudeDir, now: new Date('2026-12-01T00:00:00.000Z') },
  {
    append: async (events) => (await log.append(events)).appended.map((event) => event.id),
    has: (ids) => log.has(ids),
    liveSince: async () => undefined,
  },
);
const ms = performance.now() - t;
await log.close();
process.stdout.write(`${JSON.stringify({ ms, events: tally.added, bytes: tally.bytesRead, peakRssMb: peakRssMb() })}\n`);
