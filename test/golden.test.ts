import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectFixtureLog } from '../scripts/project-fixture-log.js';
import { repoRoot, walkFiles } from './support/temp-home.js';

const fixtures = join(repoRoot, 'fixtures');
const work = mkdtempSync(join(tmpdir(), 'engram-golden-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * fixtures/log/sessions.ndjson was recorded by driving fixtures/sessions through the real hooks
 * (scripts/record-fixture-log.ts); fixtures/golden holds what the projections made of it.
 */
describe('the recorded multi-session log', () => {
  const events = readFileSync(join(fixtures, 'log', 'sessions.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));

  it('spans at least 20 sessions over several projects', () => {
    expect(new Set(events.filter((e) => e.session).map((e) => e.session)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(events.map((e) => e.project)).size).toBeGreaterThanOrEqual(4);
  });

  it('projects to exactly the golden outputs', async () => {
    const roots = await projectFixtureLog(join(fixtures, 'log', 'sessions.ndjson'), work);
    const golden = walkFiles(join(fixtures, 'golden', 'views'), join(fixtures, 'golden', 'claude'));
    expect(Object.keys(golden).length).toBeGreaterThan(30);
    expect(walkFiles(roots.views, roots.claude)).toEqual(golden);
  });

  it('holds none of the secrets planted in the recorded sessions', () => {
    const secrets = readFileSync(join(fixtures, 'sessions', 'SECRETS.txt'), 'utf8').split('\n').filter(Boolean);
    expect(secrets.length).toBeGreaterThan(10);
    const recorded = readFileSync(join(fixtures, 'log', 'sessions.ndjson'), 'utf8');
    const projected = Object.values(walkFiles(join(fixtures, 'golden'))).join('\n');
    for (const secret of secrets) {
      expect(recorded.includes(secret), secret).toBe(false);
      expect(projected.includes(secret), secret).toBe(false);
    }
  });
});
