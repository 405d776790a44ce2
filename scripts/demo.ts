// `npm run demo`: 12 of the 24 recorded Claude Code sessions (fixtures/sessions) replayed through
// the real hook processes into a temporary home, with the worker the hooks start themselves; then
// what engram captured and derived. Nothing touches ~/.engram or ~/.claude. `-- --keep` keeps the
// temporary directory to look around in; `-- --all` replays all 24 sessions (≈ 670 hooks instead
// of ≈ 300: about twice as long).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runEngram } from '../src/cli/run-engram.js';
import { projectMemoryDir } from '../src/paths.js';
import { driveSessions } from './drive-hooks.js';
import { loadFixtureSessions } from './fixture-sessions.js';
import { repoRoot as repo, scratchHome } from './scratch-home.js';

const keep = process.argv.includes('--keep');
const all = process.argv.includes('--all');
/**
 * The sessions replayed by default: every project, both skills used, three sessions with planted
 * secrets, and each lesson that comes back in a second session (pnpm in 02 and 15, no pushing to
 * main in 09 and 10) with both of its sessions, so what the demo shows is what the whole set
 * shows, at under half the hook processes. fixtures/golden holds what all 24 make
 * (test/golden.test.ts).
 */
const SHOWN = ['01', '02', '04', '05', '06', '09', '10', '13', '15', '21', '22', '24'];
const home = scratchHome('engram-demo-', { ENGRAM_WORKER_IDLE_MS: '60000', ENGRAM_NOW: '' });
const { root, env } = home;
// The CLI's commands in this process (the bin's main, its output collected): the demo shows what
// they print, not a CLI's start, which would cost a node start and the CLI's imports each time.
const engram = (...args: string[]) => runEngram(args, { env });
const out = (text = '') => process.stdout.write(`${text}\n`);
const heading = (text: string) => out(`\n\x1b[1m== ${text}\x1b[0m`);

try {
  heading(`a fresh home: ${root}`);
  home.installUserSkills(['release-notes', 'db-migration', 'changelog-writer']);
  out((await engram('install')).stdout.trim());

  const sessions = loadFixtureSessions(join(repo, 'fixtures', 'sessions')).filter((s) => all || SHOWN.includes(s.file.slice(0, 2)));
  const total = sessions.reduce((n, s) => n + s.lines.length, 0);
  heading(`replaying ${sessions.length} recorded sessions${all ? '' : ' (`-- --all` for all 24)'}: ${total} hook processes, 3 sessions at a time`);
  let done = 0;
  const started = performance.now();
  await driveSessions(sessions, {
    // Node reads the file NODE_EXTRA_CA_CERTS names at every start (Debian's whole bundle: ≈ 46 ms
    // of CPU, a third of a hook here) and no hook opens a TLS connection. SessionStart keeps it:
    // the worker it starts inherits its environment, and the distiller's `claude -p` may need it.
    env: { ...env, NODE_EXTRA_CA_CERTS: undefined },
    sessionStartEnv: env,
    hooksDir: join(repo, 'dist', 'hooks'),
    concurrency: 3,
    onHookDone: () => {
      if (process.stdout.isTTY && (++done % 25 === 0 || done === total)) process.stdout.write(`\r  ${done}/${total} hooks run`);
    },
  });
  if (process.stdout.isTTY) out();
  out(`  ${total} hooks exited 0, nothing on stderr, context only where Claude Code reads it; ${((performance.now() - started) / 1000).toFixed(1)} s`);
  out(`  ${(await engram('worker', 'status')).stdout.split('\n')[0]} (started by the first hook)`);
  await engram('worker', '--drain');

  heading('the log');
  out((await engram('log', 'stats')).stdout.trimEnd());
  const dump = (await engram('log', 'dump')).stdout.trim().split('\n').map((line) => JSON.parse(line));
  const redacted = dump.filter((e) => JSON.stringify(e.data).includes('[REDACTED:'));
  out(`\n  ${redacted.length} events had secrets taken out before they reached disk, e.g.:`);
  for (const event of redacted.slice(0, 3)) {
    out(`    #${event.seq} ${event.type}: ${redactedText(event.data)!.replace(/\s+/g, ' ').slice(0, 110)}`);
  }
  const replayed = JSON.stringify(sessions);
  const secrets = readFileSync(join(repo, 'fixtures', 'sessions', 'SECRETS.txt'), 'utf8')
    .split('\n')
    .filter((secret) => secret !== '' && replayed.includes(JSON.stringify(secret).slice(1, -1)));
  const onDisk = filesUnder(root).map((path) => readFileSync(path, 'latin1')).join('\n');
  const leaked = secrets.filter((secret) => onDisk.includes(secret));
  out(`  secrets planted in the sessions: ${secrets.length}; found anywhere under the home: ${leaked.length}`);

  const project = '/home/dev/src/payments-api';
  const memory = join(env.CLAUDE_CONFIG_DIR, projectMemoryDir(project));
  heading(`memory files Claude Code will read for ${project}`);
  for (const path of filesUnder(join(env.CLAUDE_CONFIG_DIR, 'projects'))) out(`  ${relative(env.CLAUDE_CONFIG_DIR, path)}`);
  heading('MEMORY.md');
  out(readFileSync(join(memory, 'MEMORY.md'), 'utf8').trimEnd());
  heading('auto-stats.md');
  out(readFileSync(join(memory, 'auto-stats.md'), 'utf8').split('---\n')[2]!.trimEnd());
  heading('auto-tool-usage.md (skills)');
  out(readFileSync(join(memory, 'auto-tool-usage.md'), 'utf8').split('## Skills\n')[1]!.split('\n_Derived')[0]!.trim());
  heading('last-session trace, as the SessionStart summary will show it');
  for (const file of readdirSync(join(env.ENGRAM_HOME, 'views', 'trace')).sort()) {
    const trace = JSON.parse(readFileSync(join(env.ENGRAM_HOME, 'views', 'trace', file), 'utf8'));
    out(`  ${trace.project.padEnd(28)} ${trace.line}`);
  }

  heading('replayable: drop every projection and rebuild it from the log');
  const before = fingerprint([join(env.ENGRAM_HOME, 'views'), join(env.CLAUDE_CONFIG_DIR, 'projects')]);
  const rebuilt = await engram('rebuild');
  out(`  ${rebuilt.stderr.trim()}`);
  const after = fingerprint([join(env.ENGRAM_HOME, 'views'), join(env.CLAUDE_CONFIG_DIR, 'projects')]);
  out(`  outputs before ${before.slice(0, 12)}, after ${after.slice(0, 12)}: ${before === after ? 'byte-identical' : 'DIFFERENT'}`);
  const replay = await engram('replay', '--until', '2026-10-20T00:00:00Z', '--out', join(root, 'as-of-oct-20'));
  out(`  time travel: ${replay.stderr.trim()}`);

  heading('engram doctor');
  out((await engram('doctor')).stdout.trimEnd());
  await engram('worker', 'stop');
  if (leaked.length > 0 || before !== after) process.exitCode = 1;
} finally {
  await engram('worker', 'stop');
  if (keep) out(`\nkept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}

/** The first string in `value`, however deep, that had a secret taken out. */
function redactedText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('[REDACTED:') ? value : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const inner of Object.values(value)) {
    const found = redactedText(inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    // Regular files only: the worker's socket lives under the home too.
    names = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isFile())
      .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
      .sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => (name.endsWith('/') ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

function fingerprint(dirs: string[]): string {
  const hash = createHash('sha256');
  for (const dir of dirs) for (const path of filesUnder(dir)) hash.update(relative(root, path)).update(readFileSync(path));
  return hash.digest('hex');
}
