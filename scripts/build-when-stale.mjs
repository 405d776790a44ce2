// Builds dist/ unless it is newer than everything it is built from. `npm run demo`, `bench` and
// `eval` run the build, and `npm test` the build and the tests' typecheck: right after a clean
// clone's `npm ci`, whose `prepare` built both, they start at once instead of compiling again
// (in `.ci/run` the demo's and the tests' tsc runs cost ≈ 45 s on top of prepare's).
//
//   node scripts/build-when-stale.mjs           the build (`npm run build`)
//   node scripts/build-when-stale.mjs --tests   the build and the tests' typecheck in one tsc run
//
// Stale means: a file under the inputs modified after the stamp this script writes once a build
// succeeded (a failed build writes none, so it is tried again). The tsc runs themselves are
// incremental (dist/.tsbuildinfo*), so a build that does run recompiles only what changed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const withTests = process.argv.includes('--tests');
const stamp = withTests ? 'dist/.built-with-tests' : 'dist/.built';
const inputs = ['src', 'migrations', 'scripts', 'bench', 'package.json', 'package-lock.json', 'tsconfig.json'];
if (withTests) inputs.push('test', 'vitest.config.ts', 'tsconfig.check.json');

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
// The build's outputs, in case dist/ was partly removed by hand.
const outputs = ['dist/src/cli/main.js', 'dist/src/cli/engram.js', 'dist/hooks/session-start.cjs'];
if (builtAt > 0 && outputs.every((file) => existsSync(file)) && Math.max(...inputs.map(newest)) < builtAt) process.exit(0);

/**
 * The compiler: TypeScript 7's native one (tsgo, the devDependency @typescript/native-preview) when
 * its binary for this platform is installed, else tsc. In `.ci/run` this build, in `npm ci`'s
 * `prepare`, was ≈ 31 s of single-threaded tsc on the critical path; tsgo checks and emits the same
 * project in a quarter of that, to the same .js files (compared file by file; only the source maps
 * differ). `npm run typecheck`, `npm run build` and `prepublishOnly` keep tsc, the reference
 * checker. Each keeps its incremental state in a file of its own: neither reads the other's.
 */
function compile(project, buildInfo, extra = []) {
  const native = join('node_modules', '@typescript', `native-preview-${process.platform}-${process.arch}`, 'lib', process.platform === 'win32' ? 'tsgo.exe' : 'tsgo');
  return existsSync(native)
    ? [native, ['-p', project, ...extra, '--tsBuildInfoFile', `${buildInfo}-tsgo`]]
    : [process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', project, ...extra]];
}

const started = Date.now();
const steps = withTests
  ? [compile('tsconfig.check.json', 'dist/.tsbuildinfo-check', ['--noEmit', 'false']), [process.execPath, ['scripts/build-hooks.mjs']]]
  : [compile('.', 'dist/.tsbuildinfo'), [process.execPath, ['scripts/build-hooks.mjs']]];
for (const [command, args] of steps) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// Stamped with when the build started: a source saved while it ran makes the next call build
// again. The tests' run emits what the build does (tsconfig.check.json extends tsconfig.json), so
// it stands for the build too.
const at = new Date(started);
for (const file of withTests ? [stamp, 'dist/.built'] : [stamp]) {
  writeFileSync(file, '');
  utimesSync(file, at, at);
}
