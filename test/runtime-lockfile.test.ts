import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeLockfile, type Lockfile } from '../src/plugin/runtime-lockfile.js';
import { repoRoot } from './support/temp-home.js';

const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lockfile;
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

describe('runtimeLockfile', () => {
  it('cuts from engram\'s lock exactly what the dependencies reach, each entry with its URL and integrity, no dev flags', () => {
    const deps = { ...pkg.dependencies, esbuild: pkg.devDependencies.esbuild! };
    const cut = runtimeLockfile(lock, 'engram-runtime', deps);
    const paths = Object.keys(cut.packages).filter(Boolean);
    for (const name of Object.keys(deps)) expect(paths).toContain(`node_modules/${name}`);
    // Reached through esbuild's optional dependencies: kept, and optional (another platform's is skipped).
    expect(cut.packages['node_modules/@esbuild/linux-x64']).toMatchObject({ optional: true });
    expect(cut.packages['node_modules/esbuild']!.optional).toBeUndefined();
    // Dev tools and the optional embedder are not reached.
    for (const name of ['typescript', 'vitest', 'fast-check', 'playwright-core', 'fastembed']) expect(paths).not.toContain(`node_modules/${name}`);
    for (const path of paths) {
      const entry = cut.packages[path]!;
      expect(entry.dev).toBeUndefined();
      expect(entry.devOptional).toBeUndefined();
      expect(entry.version).toBe(lock.packages[path]!.version);
      expect(entry.integrity).toBe(lock.packages[path]!.integrity);
      expect(entry.resolved).toMatch(/^https:\/\/registry\.npmjs\.org\/.+\.tgz$/);
    }
    expect(cut.packages['']).toEqual({ name: 'engram-runtime', version: '0.0.0', dependencies: deps });
  });

  it('finds a dependency nested under its dependent before the hoisted one, as Node does', () => {
    const small: Lockfile = {
      lockfileVersion: 3,
      packages: {
        '': { name: 'x' },
        'node_modules/a': { version: '1.0.0', dependencies: { b: '^2' } },
        'node_modules/a/node_modules/b': { version: '2.0.0', dependencies: { c: '1' } },
        'node_modules/b': { version: '1.0.0', dev: true },
        'node_modules/c': { version: '1.0.0', peerDependencies: { d: '*' } },
        'node_modules/other': { version: '1.0.0' },
      },
    };
    const cut = runtimeLockfile(small, 'r', { a: '1.0.0' });
    expect(Object.keys(cut.packages)).toEqual(['', 'node_modules/a', 'node_modules/a/node_modules/b', 'node_modules/c']);
    expect(cut.packages['node_modules/a/node_modules/b']!.resolved).toBe('https://registry.npmjs.org/b/-/b-2.0.0.tgz');
    expect(() => runtimeLockfile(small, 'r', { missing: '1' })).toThrow('package-lock.json holds no missing');
  });
});
