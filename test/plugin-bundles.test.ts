import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookTable } from '../src/cli/hook-table.js';
import { repoRoot, runProcess } from './support/temp-home.js';

const out = mkdtempSync(join(tmpdir(), 'engram-plugin-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('the plugin bundles committed in plugin/', () => {
  it('are exactly what `npm run build:plugin` makes of the sources: each hook of hookTable (its entry and its bundle) the runtime bootstrap and the MCP launcher', async () => {
    const built = await runProcess([join(repoRoot, 'scripts', 'build-plugin.mjs'), '--out', out], process.env);
    expect(built.code, built.stderr).toBe(0);
    const committed = join(repoRoot, 'plugin');
    expect(files(committed)).toEqual(files(out));
    expect(files(out)).toEqual(['bin/mcp.cjs', 'prepare-runtime.cjs', ...hookTable.flatMap((spec) => [`hooks/${spec.file}`, `hooks/${spec.file.replace(/\.cjs$/, '.code.cjs')}`])].sort());
    for (const file of files(out)) {
      // Stale when it differs: run `npm run build:plugin` and commit plugin/.
      expect(readFileSync(join(committed, file)).equals(readFileSync(join(out, file))), `plugin/${file} is stale: run npm run build:plugin`).toBe(true);
    }
  });

  it('carry the package version with build time 0, and the manifests name the same version', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(readFileSync(join(repoRoot, 'plugin', 'hooks', 'session-start.code.cjs'), 'utf8')).toContain(JSON.stringify(`${version}+0`));
    const marketplace = JSON.parse(readFileSync(join(repoRoot, '.claude-plugin', 'marketplace.json'), 'utf8')) as { name: string; owner: { name: string }; plugins: Array<{ name: string; source: string; version: string }> };
    expect(marketplace.owner.name).toBeTruthy();
    expect(marketplace.plugins).toEqual([expect.objectContaining({ name: 'engram', source: './', version })]);
  });
});
