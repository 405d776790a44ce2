// Records fixtures/log/sessions.ndjson: every payload in fixtures/sessions driven through the
// real hooks into a scratch home, the worker draining after each session as it would while
// the user works, then the log dumped. Run after changing hooks or fixtures:
//   npm run build && node dist/scripts/record-fixture-log.js && node dist/scripts/update-golden.js
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { driveSessions } from './drive-hooks.js';
import { loadFixtureSessions } from './fixture-sessions.js';

const repo = resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'engram-record-'));
const env = {
  ...process.env,
  ENGRAM_HOME: join(scratch, 'home'),
  CLAUDE_CONFIG_DIR: join(scratch, 'claude'),
  ENGRAM_WORKER_AUTOSTART: '0',
};
const cli = (command: string, sub: string, now?: string) => {
  const args = [command, sub];
  const result = spawnSync(process.execPath, [join(repo, 'dist', 'src', 'cli', 'main.js'), ...args], {
    env: now ? { ...env, ENGRAM_NOW: now } : env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) throw new Error(`engram ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
};

try {
  installedSkills(join(scratch, 'claude', 'skills'), ['release-notes', 'db-migration', 'changelog-writer']);
  for (const session of loadFixtureSessions(join(repo, 'fixtures', 'sessions'))) {
    await driveSessions([session], { env, hooksDir: join(repo, 'dist', 'hooks') });
    // The worker's reactors date what they observe by its clock: the time the session ended.
    cli('worker', '--drain', session.lines.at(-1)!.at);
    process.stderr.write('.');
  }
  const dump = cli('log', 'dump');
  mkdirSync(join(repo, 'fixtures', 'log'), { recursive: true });
  writeFileSync(join(repo, 'fixtures', 'log', 'sessions.ndjson'), dump);
  process.stderr.write(`\nrecorded ${dump.trim().split('\n').length} events into fixtures/log/sessions.ndjson\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

function installedSkills(root: string, names: string[]): void {
  for (const name of names) {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${name}\n---\n`);
  }
}
