#!/usr/bin/env node
// Moves source files into the rooms docs/architecture.md draws, and rewrites every relative import
// that named an old path. Re-runnable: a file already at its new path is left where it is, and the
// rewrite runs over the whole tree each time, so a file that still imports an old path (merged
// from a branch that never saw the move) is fixed by running this again. `--check` changes nothing
// and exits 1 if anything would change (a file to move, an import to rewrite).
//
//   node scripts/move-rooms.mjs [--check]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

/**
 * Old path → new path, from the repository's root. A path ending in `/` moves every file under it
 * (also files a merge added there later). Never remove a line: an old path may still be imported
 * by a branch not yet merged.
 */
const MOVES = [
  // Shared pieces moved down to the lower room, so that rooms import in one direction only.
  ['src/memories/memory-kinds.ts', 'src/events/memory-kinds.ts'],
  ['src/distill/distill-answer-schema.ts', 'src/events/distill-answer-schema.ts'],
  ['src/recall/query-words.ts', 'src/indexes/query-words.ts'],
  ['src/recall/bm25.ts', 'src/indexes/bm25.ts'],
  ['src/recall/lexical-index.ts', 'src/indexes/lexical-index.ts'],
  ['src/recall/tool-kinds.ts', 'src/indexes/tool-kinds.ts'],
  ['src/recall/vector-store.ts', 'src/indexes/vector-store.ts'],
  ['src/recall/vector-mirror.ts', 'src/indexes/vector-mirror.ts'],
  ['src/recall/embedders/embedder.ts', 'src/indexes/embedder.ts'],
  ['src/hooks/spool-file-name.ts', 'src/spool/spool-file-name.ts'],
  ['src/hooks/lost-marker.ts', 'src/spool/lost-marker.ts'],
  ['src/hooks/process-start.ts', 'src/spool/process-start.ts'],
  ['src/hooks/tool-input-pointer.ts', 'src/capture/tool-input-pointer.ts'],
  ['src/cli/hook-command.ts', 'src/hooks/hook-command.ts'],
  ['src/plugin/settings-hooks-present.ts', 'src/hooks/settings-hooks-present.ts'],
  ['src/hooks/ensure-worker.ts', 'src/launch/ensure-worker.ts'],
  ['src/workers/live-worker.ts', 'src/launch/live-worker.ts'],
  ['src/workers/hand-over.ts', 'src/launch/hand-over.ts'],
  ['src/plugin/plugin-layout.ts', 'src/launch/plugin-layout.ts'],
  ['src/plugin/runtime-dir.ts', 'src/launch/runtime-dir.ts'],
  ['src/plugin/runtime-status.ts', 'src/launch/runtime-status.ts'],
  // src/workers/ into rooms a newcomer names from the path (after the files above left it).
  ['src/workers/engine/', 'src/engine/'],
  ['src/workers/ingest/', 'src/ingest/'],
  ['src/workers/reactors/', 'src/reactors/'],
  ['src/workers/commands/', 'src/commands/'],
  ['src/workers/socket/', 'src/socket/'],
  ['src/workers/', 'src/worker/'],
];

const SOURCE_DIRS = ['src', 'test', 'bench', 'scripts', 'migrations'];
const SELF = 'scripts/move-rooms.mjs';
const SOURCE_EXT = /\.(ts|mts|cts|mjs|cjs|js)$/;
const TEXT_FILES = () => [
  'README.md',
  'package.json',
  ...listFiles('docs').filter((f) => f.endsWith('.md')),
];

function listFiles(dir) {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  const out = [];
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const rel = posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(rel));
    else out.push(rel);
  }
  return out;
}

const isFile = (rel) => {
  try {
    return statSync(join(ROOT, rel)).isFile();
  } catch {
    return false;
  }
};

/** The new path of an old one, or undefined when it does not move. */
function moved(rel) {
  for (const [from, to] of MOVES) {
    if (from.endsWith('/') ? rel.startsWith(from) : rel === from) return from.endsWith('/') ? to + rel.slice(from.length) : to;
  }
  return undefined;
}

/** The old path a file now at `rel` came from, when it is a move's target. */
function origin(rel) {
  for (const [from, to] of MOVES) {
    if (to.endsWith('/') ? rel.startsWith(to) : rel === to) return to.endsWith('/') ? from + rel.slice(to.length) : from;
  }
  return undefined;
}

function tracked(rel) {
  try {
    execFileSync('git', ['ls-files', '--error-unmatch', rel], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let changes = 0;

// 1. Move the files (git mv when git knows the file, so history follows it).
const movedNow = new Map(); // new path → old path, for files moved in this run
for (const [from] of MOVES) {
  const olds = from.endsWith('/') ? listFiles(from.slice(0, -1)) : isFile(from) ? [from] : [];
  for (const old of olds) {
    const target = moved(old);
    if (isFile(target)) throw new Error(`both ${old} and ${target} exist: merge them by hand, then run this again`);
    changes++;
    if (check) {
      console.log(`would move ${old} → ${target}`);
      continue;
    }
    mkdirSync(dirname(join(ROOT, target)), { recursive: true });
    if (tracked(old)) execFileSync('git', ['mv', old, target], { cwd: ROOT });
    else renameSync(join(ROOT, old), join(ROOT, target));
    movedNow.set(target, old);
    removeEmptyDirs(dirname(old));
  }
}

function removeEmptyDirs(rel) {
  while (rel !== 'src' && rel !== '.' && existsSync(join(ROOT, rel)) && readdirSync(join(ROOT, rel)).length === 0) {
    rmdirSync(join(ROOT, rel));
    rel = posix.dirname(rel);
  }
}

// 2. Rewrite relative specifiers that name an old path.
const EXTS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs'];
/** The file a specifier resolved to `base` (no extension guessing beyond TS's `.js` → `.ts`) names. */
function fileFor(base) {
  if (isFile(base)) return base;
  const stem = base.replace(/\.(js|mjs|cjs|ts)$/, '');
  for (const ext of EXTS) if (isFile(stem + ext)) return stem + ext;
  for (const ext of EXTS) if (isFile(`${base}/index${ext}`)) return `${base}/index${ext}`;
  return undefined;
}
/** Where the file an old path named is now (same extension style), also under dist/ (a test spawning the build). */
function movedTarget(base) {
  const dist = base.startsWith('dist/') ? 'dist/' : '';
  const rel = base.slice(dist.length);
  const direct = moved(rel);
  if (direct && isFile(direct)) return dist + direct;
  const ext = rel.match(/\.(js|mjs|cjs|ts)$/)?.[0] ?? '';
  const stem = rel.slice(0, rel.length - ext.length);
  for (const source of ['.ts', '.tsx', '.mts']) {
    const to = moved(stem + source);
    if (to && isFile(to)) return dist + to.slice(0, to.length - source.length) + ext;
  }
  return undefined;
}
/** Where `spec` points when resolved from `dir`: the file it names today, or the moved file it named. */
function targetFrom(dir, spec) {
  const base = posix.normalize(posix.join(dir, spec));
  // dist/ mirrors the sources (tsc's outDir): a built path exists when its source does.
  const existing = fileFor(base.startsWith('dist/') ? base.slice('dist/'.length) : base);
  if (existing) return { base, moved: false };
  const to = movedTarget(base);
  return to ? { base: to, moved: true } : undefined;
}
function rewriteSpecifier(file, spec) {
  const old = movedNow.get(file);
  // A file moved in this run: its specifiers are still written from where it was.
  let found = targetFrom(posix.dirname(old ?? file), spec);
  if (!old && found && !found.moved) return spec;
  // A file moved by an earlier run, that a merge gave an import written from its old place.
  if (!found && !old && origin(file)) found = targetFrom(posix.dirname(origin(file)), spec);
  if (!found) return spec;
  let to = posix.relative(posix.dirname(file), found.base);
  if (!to.startsWith('.')) to = `./${to}`;
  return to;
}
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bmock\(\s*|\bimportActual\(\s*|\brequire\(\s*|\bnew URL\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/g;
const unresolved = [];
for (const file of SOURCE_DIRS.flatMap(listFiles).concat(listFiles('.').filter((f) => !f.includes('/') && SOURCE_EXT.test(f)))) {
  if (!SOURCE_EXT.test(file) || file.endsWith('.d.ts')) continue;
  const text = readFileSync(join(ROOT, file), 'utf8');
  const next = text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const to = rewriteSpecifier(file, spec);
    if (to === spec) {
      const base = posix.normalize(posix.join(posix.dirname(file), spec));
      if (!fileFor(base) && !base.startsWith('dist/') && !lead.startsWith('new URL')) unresolved.push(`${file}: ${spec}`);
      return whole;
    }
    return `${lead}${quote}${to}${quote}`;
  });
  if (next !== text) {
    changes++;
    if (check) console.log(`would rewrite imports in ${file}`);
    else writeFileSync(join(ROOT, file), next);
  }
}

// 3. Paths spelled as path segments: join(root, 'src', 'recall', 'lexical-index.ts'), also under 'dist'.
const SEGMENTS = /(['"])(src|dist)\1((?:\s*,\s*(['"])[\w.-]+\4)+)/g;
for (const file of SOURCE_DIRS.flatMap(listFiles).filter((f) => SOURCE_EXT.test(f) && f !== SELF)) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const next = text.replace(SEGMENTS, (whole, quote, first, rest) => {
    const parts = [first, ...[...rest.matchAll(/(['"])([\w.-]+)\1/g)].map((m) => m[2])];
    const to = movedTarget(parts.join('/'));
    if (!to) return whole;
    return to.split('/').map((part) => `${quote}${part}${quote}`).join(', ');
  });
  if (next !== text) {
    changes++;
    if (check) console.log(`would rewrite path segments in ${file}`);
    else writeFileSync(join(ROOT, file), next);
  }
}

// 4. Paths named in prose and settings (docs, README, package.json, comments in the sources).
const stemOf = (path) => (path.endsWith('/') ? path : path.replace(/\.ts$/, ''));
const named = [...MOVES].sort((a, b) => b[0].length - a[0].length);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A file's path with or without `.ts` (not a longer name that starts with it); a folder's, anything under it.
const NAMED = new RegExp(`(?<![\\w/.-])(dist/)?(${named.map(([from]) => escape(stemOf(from)) + (from.endsWith('/') ? '' : '(?![\\w-])')).join('|')})`, 'g');
for (const file of TEXT_FILES().concat(SOURCE_DIRS.flatMap(listFiles).filter((f) => SOURCE_EXT.test(f)))) {
  if (!isFile(file) || file === SELF) continue;
  const text = readFileSync(join(ROOT, file), 'utf8');
  const next = text.replace(NAMED, (whole, dist = '', path) => {
    const rule = named.find(([from]) => stemOf(from) === path);
    return rule ? dist + stemOf(rule[1]) : whole;
  });
  if (next !== text) {
    changes++;
    if (check) console.log(`would rename paths named in ${file}`);
    else writeFileSync(join(ROOT, file), next);
  }
}

// 5. The plugin's committed bundles name their sources' paths: build them again from the moved ones.
if (!check && changes > 0) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-plugin.mjs')], { cwd: ROOT, stdio: 'inherit' });

for (const line of unresolved) console.error(`unresolved import (not a moved path): ${line}`);
if (check && changes > 0) process.exit(1);
console.log(check ? 'nothing to move or rewrite' : `${changes} change(s)`);
