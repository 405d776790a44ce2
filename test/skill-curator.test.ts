import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { sessionSummary } from '../src/hooks/session-summary.js';
import { projectSlug } from '../src/paths.js';
import { openEngine } from '../src/composition/open-engine.js';
import { cliHere, useTempHomes, walkFiles } from './support/temp-home.js';

const home = useTempHomes();
const DAY = 24 * 3600_000;
const T0 = Date.parse('2026-08-01T09:00:00.000Z');
const at = (days: number) => new Date(T0 + days * DAY);

let seq = 0;
const event = (type: string, project: string, data: unknown, ts: Date): Envelope => ({
  id: `evt-curator-${String(++seq).padStart(6, '0')}`, type, schemaVersion: 1, ts: ts.toISOString(), session: 'sess-1', project, data,
});

const CAPTURED = 'metadata:\n  engram: captured\n';
function skill(dir: string, description: string, extra = ''): string {
  mkdirSync(dir, { recursive: true });
  const text = `---\nname: ${dir.split('/').pop()}\ndescription: ${description}\n${extra}---\n\n## When to use\nx\n## Procedure\ny\n## Pitfalls\nz\n## Verification\nw\n`;
  writeFileSync(join(dir, 'SKILL.md'), text);
  return text;
}

describe('the curator', () => {
  it('reports captured skills unused 31 and 91 days as stale and archivable, moves (never deletes) with archiving on, and never mentions a hand-written or pinned one', async () => {
    const h = home();
    const project = join(h.root, 'repo');
    const userSkills = join(h.paths.claude, 'skills');
    const releaseNotes = skill(join(userSkills, 'release-notes'), 'write the release notes', CAPTURED);
    skill(join(project, '.claude', 'skills', 'db-migrate'), 'run a database migration', CAPTURED);
    const handWritten = skill(join(userSkills, 'hand-written'), 'a skill the user wrote');
    skill(join(userSkills, 'pinned-notes'), 'a captured skill the user pinned', `${CAPTURED}pinned: true\n`);
    const open = (days: number, archive = false) => openEngine({ paths: h.paths, clock: fixedClock(at(days)), skills: { curator: { archive } } });

    let engine = await open(0);
    await engine.record([event('SessionStarted', project, { source: 'startup' }, at(0))]);
    await engine.drain();
    // db-migrate is used on day 60 (the Skill tool), release-notes never: both age from then.
    await engine.record([event('ToolCalled', project, { tool: 'Skill', input: 'db-migrate', ok: true }, at(60))]);
    await engine.close();

    engine = await open(91);
    await engine.drain();
    await engine.close();
    const view = JSON.parse(readFileSync(join(h.paths.views, 'skills', 'global.json'), 'utf8'));
    expect(view.curator.findings).toEqual([
      { name: 'release-notes', scope: 'user', project: '', lastUsed: at(0).toISOString(), days: 91, verdict: 'archivable' },
    ]);
    const projectView = JSON.parse(readFileSync(join(h.paths.views, 'skills', `${projectSlug(project)}.json`), 'utf8'));
    expect(projectView.curator.findings).toEqual([
      { name: 'db-migrate', scope: 'project', project, lastUsed: at(60).toISOString(), days: 31, verdict: 'stale' },
    ]);
    const summary = sessionSummary(h.paths, 'sess-2', project);
    expect(summary).toContain('- Captured skills unused 30+ days (stale): "db-migrate"; `engram skills curate --dry-run` lists them.');
    expect(summary).toContain('- Captured skills unused 90+ days (archivable): "release-notes"; `engram skills curate --dry-run` lists them. (global)');
    expect(summary).not.toMatch(/hand-written|pinned-notes/);
    // Notify-only by default: nothing moved.
    expect(readFileSync(join(userSkills, 'release-notes', 'SKILL.md'), 'utf8')).toBe(releaseNotes);

    // The CLI's dry run, in a process of its own, at a time ENGRAM_NOW sets.
    const dry = await cliHere(['skills', 'curate', '--dry-run'], { ...h.env, ENGRAM_NOW: at(92).toISOString() });
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toBe(
      `archivable  release-notes  (user; unused 92 days, since 2026-08-01)\nstale  db-migrate  (project ${project}; unused 32 days, since 2026-09-30)\n`,
    );

    // A week later, with archiving on: moved to _archive/ beside it, byte for byte; the others stay.
    engine = await open(98, true);
    await engine.drain();
    const events: Envelope[] = [];
    for await (const batch of engine.log.read()) events.push(...batch);
    await engine.close();
    expect(existsSync(join(userSkills, 'release-notes'))).toBe(false);
    expect(readFileSync(join(userSkills, '_archive', 'release-notes', 'SKILL.md'), 'utf8')).toBe(releaseNotes);
    expect(readFileSync(join(userSkills, 'hand-written', 'SKILL.md'), 'utf8')).toBe(handWritten);
    expect(existsSync(join(userSkills, 'pinned-notes', 'SKILL.md'))).toBe(true);
    expect(existsSync(join(project, '.claude', 'skills', 'db-migrate', 'SKILL.md'))).toBe(true);
    expect(events.filter((e) => e.type === 'SkillArchived').map((e) => e.data)).toEqual([
      { name: 'release-notes', scope: 'user', from: join(userSkills, 'release-notes'), to: join(userSkills, '_archive', 'release-notes') },
    ]);
    expect(JSON.stringify(events.filter((e) => e.type === 'SkillsCurated'))).not.toMatch(/hand-written|pinned-notes/);

    // Throttled: a day later nothing runs again; the archived skill is not scanned as a skill again.
    engine = await open(99, true);
    const before = walkFiles(userSkills);
    await engine.drain();
    let curated = 0;
    for await (const batch of engine.log.read()) curated += batch.filter((e) => e.type === 'SkillsCurated').length;
    await engine.close();
    // Day 0 (nothing to say yet), day 91, day 98: not day 99.
    expect(curated).toBe(3);
    expect(walkFiles(userSkills)).toEqual(before);
  });

  it('ages a skill marked `engram: captured` at the top level of its frontmatter, as under `metadata:`', async () => {
    const h = home();
    const userSkills = join(h.paths.claude, 'skills');
    skill(join(userSkills, 'top-level'), 'a skill captured with the mark at the top level', 'engram: captured\n');
    skill(join(userSkills, 'nested'), 'a skill captured with the mark under metadata', CAPTURED);
    skill(join(userSkills, 'top-level-pinned'), 'a captured skill the user pinned at the top level', 'engram: captured\npinned: true\n');
    let engine = await openEngine({ paths: h.paths, clock: fixedClock(at(0)) });
    await engine.record([event('SessionStarted', join(h.root, 'repo'), { source: 'startup' }, at(0))]);
    await engine.drain();
    await engine.close();
    engine = await openEngine({ paths: h.paths, clock: fixedClock(at(91)) });
    await engine.drain();
    await engine.close();
    const view = JSON.parse(readFileSync(join(h.paths.views, 'skills', 'global.json'), 'utf8'));
    expect(view.curator.findings.map((f: { name: string; verdict: string }) => [f.name, f.verdict]).sort()).toEqual([
      ['nested', 'archivable'],
      ['top-level', 'archivable'],
    ]);
  });

  it('sees a skill the agent captures through the PostToolUse event of its Write, at once, not at the next rescan', async () => {
    const h = home();
    const project = join(h.root, 'repo');
    const engine = await openEngine({ paths: h.paths, clock: fixedClock(at(0)) });
    try {
      await engine.record([event('SessionStarted', project, { source: 'startup' }, at(0))]);
      await engine.drain();
      const path = join(project, '.claude', 'skills', 'bisect-flaky-test', 'SKILL.md');
      skill(join(project, '.claude', 'skills', 'bisect-flaky-test'), 'find the commit that made a test flaky', CAPTURED);
      // The same clock: without the Write, the 5-minute rescan would not look again yet.
      await engine.record([event('ToolCalled', project, { tool: 'Write', input: path, ok: true, toolUseId: 'toolu_1' }, at(0))]);
      await engine.drain();
      const scanned: Envelope[] = [];
      for await (const batch of engine.log.read()) scanned.push(...batch.filter((e) => e.type === 'SkillsScanned'));
      expect(scanned.map((e) => [e.project, e.data])).toEqual([
        [project, { skills: [expect.objectContaining({ name: 'bisect-flaky-test', scope: 'project', description: 'find the commit that made a test flaky', captured: true, pinned: false })] }],
      ]);
    } finally {
      await engine.close();
    }
  });
});
