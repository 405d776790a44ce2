import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { PackageEcosystem } from './claims.js';

/**
 * The packages a project declares or locks, by ecosystem, read from its manifests and
 * lockfiles: package.json (every kind of dependency), package-lock.json, yarn.lock,
 * pnpm-lock.yaml; requirements*.txt, pyproject.toml (PEP 621, dependency groups, Poetry),
 * Pipfile, poetry.lock, uv.lock; Cargo.toml, Cargo.lock; go.mod, go.sum; Gemfile, Gemfile.lock;
 * composer.json, composer.lock. The text formats are read line by line, not with full TOML or
 * YAML parsers: a false "found" costs nothing, and a file that cannot be read is reported so
 * a package not found beside it is unverifiable, not missing.
 */

export type Ecosystem = Exclude<PackageEcosystem, 'any'>;

export interface ProjectPackages {
  /** Normalised names (see `normalizePackageName`) by ecosystem. */
  readonly names: ReadonlyMap<Ecosystem, ReadonlySet<string>>;
  /** Manifest files read, by ecosystem, relative to the root. */
  readonly sources: ReadonlyMap<Ecosystem, readonly string[]>;
  /** Manifests that could not be read or parsed (too large, malformed), by ecosystem. */
  readonly unreadable: ReadonlyMap<Ecosystem, readonly string[]>;
}

const MANIFESTS: ReadonlyArray<{ test: (name: string) => boolean; ecosystem: Ecosystem; read: (text: string) => Iterable<string> }> = [
  { test: (name) => name === 'package.json', ecosystem: 'npm', read: packageJson },
  { test: (name) => name === 'package-lock.json' || name === 'npm-shrinkwrap.json', ecosystem: 'npm', read: packageLock },
  { test: (name) => name === 'yarn.lock', ecosystem: 'npm', read: yarnLock },
  { test: (name) => name === 'pnpm-lock.yaml', ecosystem: 'npm', read: pnpmLock },
  { test: (name) => /^requirements[\w.-]*\.(?:txt|in)$/.test(name), ecosystem: 'pypi', read: requirementsTxt },
  { test: (name) => name === 'pyproject.toml', ecosystem: 'pypi', read: pyproject },
  { test: (name) => name === 'Pipfile', ecosystem: 'pypi', read: (text) => tomlTableKeys(text, (table) => table === 'packages' || table === 'dev-packages') },
  { test: (name) => name === 'poetry.lock' || name === 'uv.lock', ecosystem: 'pypi', read: lockedPackageNames },
  { test: (name) => name === 'Cargo.toml', ecosystem: 'cargo', read: cargoToml },
  { test: (name) => name === 'Cargo.lock', ecosystem: 'cargo', read: lockedPackageNames },
  { test: (name) => name === 'go.mod', ecosystem: 'go', read: goMod },
  { test: (name) => name === 'go.sum', ecosystem: 'go', read: (text) => text.split('\n').map((line) => line.split(' ')[0]!).filter(Boolean) },
  { test: (name) => name === 'Gemfile', ecosystem: 'gem', read: (text) => [...text.matchAll(/^\s*gem\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!) },
  { test: (name) => name === 'Gemfile.lock', ecosystem: 'gem', read: (text) => [...text.matchAll(/^ {4}([A-Za-z0-9][\w.-]*) \(/gm)].map((m) => m[1]!) },
  { test: (name) => name === 'composer.json', ecosystem: 'composer', read: composerJson },
  { test: (name) => name === 'composer.lock', ecosystem: 'composer', read: composerLock },
];

/** Whether a file name is one of the manifests or lockfiles read here. */
export function isManifestName(name: string): boolean {
  return MANIFESTS.some((manifest) => manifest.test(name));
}

/**
 * Reads the given manifest files (paths relative to `root`); files larger than `maxBytes`
 * are not read and count as unreadable.
 */
export async function readProjectPackages(root: string, files: readonly string[], maxBytes: number): Promise<ProjectPackages> {
  const names = new Map<Ecosystem, Set<string>>();
  const sources = new Map<Ecosystem, string[]>();
  const unreadable = new Map<Ecosystem, string[]>();
  const add = <T>(map: Map<Ecosystem, T[]>, key: Ecosystem, value: T) => map.set(key, [...(map.get(key) ?? []), value]);
  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const manifest = MANIFESTS.find((candidate) => candidate.test(name));
    if (!manifest) continue;
    const text = await readCapped(join(root, file), maxBytes);
    if (text === undefined) {
      add(unreadable, manifest.ecosystem, file);
      continue;
    }
    let found: string[];
    try {
      found = [...manifest.read(text)];
    } catch {
      add(unreadable, manifest.ecosystem, file);
      continue;
    }
    add(sources, manifest.ecosystem, file);
    const set = names.get(manifest.ecosystem) ?? new Set<string>();
    for (const packageName of found) set.add(normalizePackageName(packageName, manifest.ecosystem));
    names.set(manifest.ecosystem, set);
  }
  return { names, sources, unreadable };
}

/**
 * The form names are compared in: PyPI per PEP 503 (case, and runs of `-_.` alike); crates.io
 * treats `-` and `_` alike; npm, Go and Composer names as written (npm's are lower case anyway,
 * Go module paths are case-sensitive).
 */
export function normalizePackageName(name: string, ecosystem: Ecosystem): string {
  switch (ecosystem) {
    case 'pypi':
      return name.toLowerCase().replace(/[-_.]+/g, '-');
    case 'cargo':
      return name.toLowerCase().replace(/-/g, '_');
    case 'gem':
    case 'composer':
      return name.toLowerCase();
    default:
      return name;
  }
}

/** Whether `name` is among `known` in the sense of its ecosystem (a Go package inside a known module). */
export function hasPackage(known: ReadonlySet<string>, name: string, ecosystem: Ecosystem): boolean {
  const normalized = normalizePackageName(name, ecosystem);
  if (known.has(normalized)) return true;
  if (ecosystem === 'go') {
    for (const module of known) if (normalized.startsWith(`${module}/`) || module.startsWith(`${normalized}/v`)) return true;
  }
  return false;
}

async function readCapped(path: string, maxBytes: number): Promise<string | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size > maxBytes) return undefined;
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

const NPM_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

function* packageJson(text: string): Iterable<string> {
  const json = JSON.parse(text) as Record<string, unknown>;
  if (typeof json.name === 'string') yield json.name;
  for (const field of NPM_FIELDS) {
    const deps = json[field];
    if (deps && typeof deps === 'object' && !Array.isArray(deps)) yield* Object.keys(deps);
  }
  for (const field of ['bundleDependencies', 'bundledDependencies']) {
    const deps = json[field];
    if (Array.isArray(deps)) yield* deps.filter((dep): dep is string => typeof dep === 'string');
  }
}

function* packageLock(text: string): Iterable<string> {
  const json = JSON.parse(text) as { packages?: Record<string, unknown>; dependencies?: Record<string, unknown> };
  for (const key of Object.keys(json.packages ?? {})) {
    const at = key.lastIndexOf('node_modules/');
    if (at >= 0) yield key.slice(at + 'node_modules/'.length);
  }
  yield* Object.keys(json.dependencies ?? {});
}

function* yarnLock(text: string): Iterable<string> {
  // `"@scope/a@^1.0.0", a@npm:^2:` at the start of a line.
  for (const line of text.split('\n')) {
    if (!line || /^[\s#]/.test(line) || !line.trimEnd().endsWith(':')) continue;
    for (const entry of line.slice(0, line.trimEnd().length - 1).split(',')) {
      const name = /^\s*"?((?:@[^@/"\s]+\/)?[^@/"\s]+)@/.exec(entry)?.[1];
      if (name) yield name;
    }
  }
}

function* pnpmLock(text: string): Iterable<string> {
  // Package keys (`/a@1.0.0:`, `'@s/a@1.0.0':`, `a@1.0.0(peer):`) and importers' dependency keys (`a:` then `specifier:`).
  for (const match of text.matchAll(/^\s+['"]?\/?((?:@[\w.-]+\/)?[\w.-]+)@\d/gm)) yield match[1]!;
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const key = /^\s+['"]?((?:@[\w.-]+\/)?[\w.-]+)['"]?:\s*$/.exec(lines[i]!)?.[1];
    if (key && /^\s+specifier:/.test(lines[i + 1]!)) yield key;
  }
}

function* requirementsTxt(text: string): Iterable<string> {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line || line.startsWith('#') || line.startsWith('-')) continue;
    const name = /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line)?.[1];
    if (name) yield name;
  }
}

/** A PEP 508 requirement's name: `requests[socks]>=2; python_version>"3.8"` → requests. */
function requirementName(spec: string): string | undefined {
  return /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1];
}

function* pyproject(text: string): Iterable<string> {
  // PEP 621 `dependencies = [...]`, `[project.optional-dependencies]` and `[dependency-groups]`
  // arrays of requirement strings; Poetry's dependency tables by key.
  let table = '';
  let inArray = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    const header = /^\[\[?([^\]]+)\]\]?$/.exec(line);
    if (header) {
      table = header[1]!.trim();
      inArray = false;
      continue;
    }
    const arrayTable = table === 'project' || table === 'project.optional-dependencies' || table === 'dependency-groups';
    if (arrayTable) {
      const start = /^([\w-]+)\s*=\s*\[(.*)$/.exec(line);
      if (start && (table !== 'project' || start[1] === 'dependencies' || start[1] === 'optional-dependencies')) {
        inArray = !start[2]!.includes(']');
        yield* quotedRequirements(start[2]!);
        continue;
      }
      if (inArray) {
        yield* quotedRequirements(line);
        if (line.includes(']')) inArray = false;
        continue;
      }
    }
    if (/^tool\.poetry(?:\.group\.[\w-]+)?\.(?:dev-)?dependencies$/.test(table)) {
      const key = /^"?([A-Za-z0-9][\w.-]*)"?\s*=/.exec(line)?.[1];
      if (key && key !== 'python') yield key;
    }
  }
}

function* quotedRequirements(text: string): Iterable<string> {
  for (const match of text.matchAll(/"([^"]+)"|'([^']+)'/g)) {
    const name = requirementName(match[1] ?? match[2]!);
    if (name) yield name;
  }
}

/** Keys of the TOML tables `wanted` accepts, and the names of `[table.name]` sub-tables. */
function* tomlTableKeys(text: string, wanted: (table: string) => boolean): Iterable<string> {
  let table = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    const header = /^\[\[?([^\]]+)\]\]?$/.exec(line);
    if (header) {
      table = header[1]!.trim();
      const dot = table.lastIndexOf('.');
      if (dot > 0 && wanted(table.slice(0, dot))) yield table.slice(dot + 1).replace(/^"|"$/g, '');
      continue;
    }
    if (!wanted(table)) continue;
    const key = /^"?([A-Za-z0-9][\w.-]*)"?\s*=/.exec(line)?.[1];
    if (key) yield key;
  }
}

function cargoToml(text: string): Iterable<string> {
  // [dependencies], [dev-dependencies], [build-dependencies], [workspace.dependencies],
  // [target.'cfg(unix)'.dependencies], and [dependencies.serde] sub-tables.
  return tomlTableKeys(text, (table) => /(?:^|\.)(?:dev-|build-)?dependencies$/.test(table));
}

function* lockedPackageNames(text: string): Iterable<string> {
  // Cargo.lock, poetry.lock, uv.lock: `[[package]]` then `name = "x"`.
  for (const match of text.matchAll(/^\[\[package\]\]\s*\nname\s*=\s*"([^"]+)"/gm)) yield match[1]!;
}

function* goMod(text: string): Iterable<string> {
  let inBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    const module = /^module\s+(\S+)/.exec(line)?.[1];
    if (module) yield module.replace(/^"|"$/g, '');
    if (/^require\s*\($/.test(line)) {
      inBlock = true;
      continue;
    }
    if (inBlock && line === ')') {
      inBlock = false;
      continue;
    }
    const path = inBlock ? /^(\S+)\s+\S+/.exec(line)?.[1] : /^require\s+(\S+)\s+\S+/.exec(line)?.[1];
    if (path) yield path;
  }
}

function* composerJson(text: string): Iterable<string> {
  const json = JSON.parse(text) as Record<string, unknown>;
  if (typeof json.name === 'string') yield json.name;
  for (const field of ['require', 'require-dev']) {
    const deps = json[field];
    if (deps && typeof deps === 'object' && !Array.isArray(deps)) yield* Object.keys(deps);
  }
}

function* composerLock(text: string): Iterable<string> {
  const json = JSON.parse(text) as { packages?: Array<{ name?: unknown }>; 'packages-dev'?: Array<{ name?: unknown }> };
  for (const pkg of [...(json.packages ?? []), ...(json['packages-dev'] ?? [])]) if (typeof pkg.name === 'string') yield pkg.name;
}
