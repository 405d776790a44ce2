import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, runProcess, useTempHomes } from './support/temp-home.js';

// The bin users run is the bundled front end (scripts/bundle-cli.mjs); the other tests spawn the
// tsc build beside it. This holds the bundle to the same behaviour where its packaging could
// differ: the build id it is stamped with, a command the worker answers, one it runs itself with
// the engine loaded from its chunks, and a usage mistake.
const bin = join(repoRoot, JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).bin.engram as string);
const home = useTempHomes();

describe('the bundled bin', () => {
  it('is executable, and says the same version and build as the tsc build', async () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    const h = home();
    const bundled = await runProcess([bin, '--version'], h.env);
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toBe((await runCli(['--version'], h.env)).stdout);
  });

  it('runs a command itself when no worker answers, is answered by a running worker, and exits 2 on a usage mistake', async () => {
    const h = home();
    const alone = await runProcess([bin, 'log', 'stats'], h.env);
    expect(alone).toMatchObject({ code: 0 });
    expect(alone.stdout).toMatch(/^events: \d+/m);
    expect((await runProcess([bin, 'worker', '--detach'], h.env)).code).toBe(0);
    const answered = await runProcess([bin, 'log', 'stats', '--json'], h.env);
    expect(answered.code).toBe(0);
    // The worker it started is the tsc build's, of the same build: it did not hand over.
    expect(answered.stderr).not.toContain('hands over');
    expect(JSON.parse(answered.stdout)).toHaveProperty('head');
    const usage = await runProcess([bin, 'log', '--bogus'], h.env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/engram log/);
  });
});
