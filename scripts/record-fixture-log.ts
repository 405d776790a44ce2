// Records fixtures/log/sessions.ndjson: every payload in fixtures/sessions driven through the
// real hooks into a scratch home, the worker draining after each session as it would while
// the user works, then the log dumped. Run after changing hooks or fixtures:
//   npm run build && node dist/scripts/record-fixture-log.js && node dist/scripts/update-golden.js
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { driveSessions } from './drive-hooks.js';
import { loadFixtureSessions } from './fixture-sessions.js';
import { repoRoot as repo, scratchHome } from './scratch-home.js';

const home = scratchHome('engram-record-', { ENGRAM_WORKER_AUTOSTART: '0' });
const { env } = home;
const cli = (args: string[], now?: string) => {
  const result = home.engram(args, now ? { ENGRAM_NOW: now } : {});
  if (result.code !== 0) throw new Error(`engram ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
};

try {
  home.installUserSkills(['release-notes', 'db-migration', 'changelog-writer']);
  for (const session of loadFixtureSessions(join(repo, 'fixtures', 'sessions'))) {
    await driveSessions([session], { env, hooksDir: join(repo, 'dist', 'hooks') });
    // The worker's reactors date what they observe by its clock: the time the session ended.
    cli(['worker', '--drain'], session.lines.at(-1)!.at);
    process.stderr.write('.');
  }
  // Which build wrote each event changes with every build; the fixtures are about what happened.
  const dump = cli(['log', 'dump']).split('\n').map((line) => (line ? JSON.stringify({ ...JSON.parse(line), producer: undefined }) : line)).join('\n');
  mkdirSync(join(repo, 'fixtures', 'log'), { recursive: true });
  writeFileSync(join(repo, 'fixtures', 'log', 'sessions.ndjson'), dump);
  process.stderr.write(`\nrecorded ${dump.trim().split('\n').length} events into fixtures/log/sessions.ndjson\n`);
} finally {
  rmSync(home.root, { recursive: true, force: true });
}

