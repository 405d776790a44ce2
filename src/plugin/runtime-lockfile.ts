/**
 * The lockfile of the plugin's runtime (the worker's dependencies, installed by engram into its
 * runtime directory), cut from engram's own package-lock.json: exactly the versions engram was
 * tested with, and `npm ci` can install them from npm's cache without asking the registry.
 * Pure; Node built-ins only (it runs in the plugin's bootstrap, before any dependency exists).
 */

export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  name?: string;
  link?: boolean;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

export interface Lockfile {
  name?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/**
 * Optional dependencies of engram's dependencies that engram never loads, left out of the cut
 * with everything only they reach. `@huggingface/transformers` is LanceDB's transformers.js
 * embedding function (engram embeds by itself): ≈ 340 MB of onnxruntime-node, onnxruntime-web
 * and sharp, whose install fetches CUDA files when an nvcc is on PATH, fails offline and is
 * then rolled back. Without it `npm ci` unpacks half as much (CPU ≈ 31 → 15 s here) and a later
 * `npm install` over the tree no longer tries the failed install again (≈ 14 → 1.5 s).
 */
const UNUSED_OPTIONAL = new Set(['@huggingface/transformers']);

/** npm's public registry: `npm ci` swaps in the registry the user configured (`replace-registry-host`). */
const REGISTRY = 'https://registry.npmjs.org';

/**
 * The lock of a package named `name` that depends on `dependencies` (name → version), holding
 * every package of `lock` those reach and nothing else. Each entry gets the `resolved` URL npm
 * leaves out under `omit-lockfile-registry-resolved` (without it `npm ci` asks the registry for
 * each package's metadata), and the dev flags go (nothing here is a dev dependency any more;
 * what was optional stays optional, so a package for another platform is skipped, not an error).
 * An optional dependency named in UNUSED_OPTIONAL is left out, from its dependent's entry too
 * (`npm ci` refuses a lock whose entries name a dependency it does not hold). Throws when a
 * dependency is not in the lock: installing it would mean resolving versions.
 */
export function runtimeLockfile(lock: Lockfile, name: string, dependencies: Record<string, string>): Lockfile {
  const packages: Record<string, LockEntry> = { '': { name, version: '0.0.0', dependencies: { ...dependencies } } };
  const optional = new Map<string, boolean>();
  const visit = (from: string, deps: Record<string, string>, viaOptional: boolean, canMiss: (dep: string) => boolean) => {
    for (const dep of Object.keys(deps)) {
      const path = resolveFrom(lock, from, dep);
      if (path === undefined) {
        if (canMiss(dep)) continue;
        throw new Error(`package-lock.json holds no ${dep} for ${from || 'the runtime'}`);
      }
      const known = optional.get(path);
      // Reached again: only an edge that makes it required (or the first visit) goes on.
      if (known !== undefined && (known === false || viaOptional)) continue;
      optional.set(path, viaOptional);
      const entry = lock.packages[path]!;
      visit(path, entry.dependencies ?? {}, viaOptional, () => false);
      visit(path, withoutUnused(entry.optionalDependencies ?? {}), true, () => true);
      // npm installs peers too; an optional peer or one the tree lacks is left out, as npm does.
      visit(path, entry.peerDependencies ?? {}, viaOptional, () => true);
    }
  };
  visit('', dependencies, false, () => false);
  for (const [path, isOptional] of [...optional].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const { dev: _dev, devOptional: _devOptional, optional: _optional, ...entry } = lock.packages[path]!;
    if (entry.optionalDependencies) entry.optionalDependencies = withoutUnused(entry.optionalDependencies);
    packages[path] = { ...entry, ...(entry.resolved || entry.link ? {} : { resolved: registryUrl(path, entry) }), ...(isOptional ? { optional: true } : {}) };
  }
  return { name, lockfileVersion: 3, requires: true, packages };
}

function withoutUnused(deps: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(deps).filter(([dep]) => !UNUSED_OPTIONAL.has(dep)));
}

/** Where Node would find `dep` required from the package at `from`: its own node_modules, then each one above. */
function resolveFrom(lock: Lockfile, from: string, dep: string): string | undefined {
  let base = from;
  for (;;) {
    const path = base === '' ? `node_modules/${dep}` : `${base}/node_modules/${dep}`;
    if (lock.packages[path]) return path;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

function registryUrl(path: string, entry: LockEntry): string {
  const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  return `${REGISTRY}/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
}
