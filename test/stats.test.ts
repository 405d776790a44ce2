import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '../src/events/default-catalog.js';
import type { Envelope } from '../src/events/envelope.js';
import { program, type ProjectStats } from '../src/projections/project-stats.js';
import { fold } from '../src/projections/projector.js';
import { statsProjector } from '../src/projections/stats.js';

const catalog = defaultCatalog();
let seq = 0;
const event = (type: string, session: string, data: unknown): ReturnType<typeof catalog.readStored> => {
  const envelope: Envelope = { id: `evt-${++seq}-000000`, type, schemaVersion: 1, ts: `2026-11-01T10:00:${String(seq).padStart(2, '0')}.000Z`, session, project: '/home/dev/p', data };
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
