import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { Envelope } from '../src/events/envelope.js';
import { program, type ProjectStats } from '../src/projections/project-stats.js';
import { fold } from '../src/projections/projector.js';
import { materializeStats, statsProjector } from '../src/projections/stats.js';

const catalog = defaultCatalog();
let seq = 0;
const event = (type: string, session: string, data: unknown, project = '/home/dev/p'): ReturnType<typeof catalog.readStored> => {
  const envelope: Envelope = { id: `evt-${++seq}-000000`, type, schemaVersion: 1, ts: `2026-11-01T10:00:${String(seq).padStart(2, '0')}.000Z`, session, project, data };
  return catalog.readStored({ ...envelope, seq });
};

describe('the stats projection', () => {
  it('counts a session whichever hook it was first seen through, SubagentStop and SessionEnd included', () => {
    const { rows } = fold(statsProjector(), [
      event('SessionStarted', 'a', { source: 'startup' }),
      event('SubagentStopped', 'b', {}),
      event('SessionEnded', 'c', { reason: 'other' }),
      event('TurnStopped', 'a', { stopHookActive: false, answerChars: 10 }),
    ]);
    const stats = rows.get('project:/home/dev/p') as ProjectStats;
    expect(stats.sessions).toBe(3);
    expect(stats.lastAt).toBe('2026-11-01T10:00:04.000Z');
  });
});

describe('the stats projection\'s counts by name', () => {
  it('keeps each tool, program and skill in a row of its own, and the files show them as counted', async () => {
    const { rows } = fold(statsProjector(), [
      event('SessionStarted', 's', { source: 'startup' }),
      event('ToolCalled', 's', { tool: 'Bash', input: 'npm test', ok: true }),
      event('ToolCalled', 's', { tool: 'Bash', input: 'FOO=1 npm run build', ok: false }),
      event('ToolCalled', 's', { tool: 'Skill', input: 'release-notes', ok: true }),
      event('ToolFailed', 's', { tool: 'Bash', input: 'make', error: 'Exit code 2' }),
      event('ToolCalled', 's', { tool: 'Read', input: 'a.ts', ok: true }),
    ]);
    const project = rows.get('project:/home/dev/p') as ProjectStats;
    // The project's row holds no map of counts: an event copies none.
    expect(Object.keys(project)).not.toContain('tools');
    expect(rows.get('tool:/home/dev/p\u0000Bash')).toEqual({ calls: 3, errors: 2 });
    expect(rows.get('tool:/home/dev/p\u0000Read')).toEqual({ calls: 1, errors: 0 });
    // A failure its own hook reported counts as a tool call only.
    expect(rows.get('command:/home/dev/p\u0000npm')).toBe(2);
    expect(rows.has('command:/home/dev/p\u0000make')).toBe(false);
    expect(rows.get('skill:/home/dev/p\u0000release-notes')).toBe(1);
    const scan = async function* (prefix: string) {
      for (const [key, row] of [...rows].sort(([a], [b]) => (a < b ? -1 : 1))) if (key.startsWith(prefix)) yield [key, row] as [string, unknown];
    };
    const ops = await materializeStats('project:/home/dev/p', project, scan);
    const usage = ops.find((op) => op.kind === 'write' && op.path.endsWith('auto-tool-usage.md'));
    expect(usage?.kind === 'write' && usage.content).toContain('| `Bash` | 3 | 60.0 % |');
    expect(usage?.kind === 'write' && usage.content).toContain('| `npm` | 2 |');
    expect(usage?.kind === 'write' && usage.content).toContain('Used: `release-notes` (1).');
    expect(await materializeStats('tool:/home/dev/p\u0000Bash', { calls: 3, errors: 2 }, scan)).toEqual([]);
  });

  it('keeps apart the counts of a project whose path is another\'s and a newline more', async () => {
    const other = '/home/dev/p\nq';
    const { rows } = fold(statsProjector(), [
      event('ToolCalled', 's', { tool: 'Bash', input: 'npm test', ok: true }),
      event('ToolCalled', 't', { tool: 'Bash', input: 'cargo test', ok: true }, other),
      event('ToolCalled', 't', { tool: 'Grep', input: 'TODO', ok: true }, other),
    ]);
    const scan = async function* (prefix: string) {
      for (const [key, row] of [...rows].sort(([a], [b]) => (a < b ? -1 : 1))) if (key.startsWith(prefix)) yield [key, row] as [string, unknown];
    };
    const ops = await materializeStats('project:/home/dev/p', rows.get('project:/home/dev/p') as ProjectStats, scan);
    const usage = ops.find((op) => op.kind === 'write' && op.path.endsWith('auto-tool-usage.md'));
    const text = usage?.kind === 'write' ? usage.content : '';
    expect(text).toContain('| `Bash` | 1 |');
    expect(text).not.toContain('Grep');
    expect(text).not.toContain('cargo');
  });
});

describe('the program a shell command runs', () => {
  it.each([
    ['npm test', 'npm'],
    ['FOO=1 npm test', 'npm'],
    ['sudo make install', 'make'],
    ['cd web && pnpm build', 'pnpm'],
    ['for f in *.ts; do npx tsc $f; done', 'npx'],
    ['while read line; do echo "$line"; done < list', 'read'],
    ['if [ -f package.json ]; then npm ci; fi', 'npm'],
    ['time cargo test', 'cargo'],
    ['! grep -q TODO src/index.ts', 'grep'],
    ['/usr/local/bin/node script.js', 'node'],
    ['export X=1; ./run.sh', 'run.sh'],
    ['cd /tmp', '(none)'],
  ])('%s → %s', (command, expected) => {
    expect(program(command)).toBe(expected);
  });
});
