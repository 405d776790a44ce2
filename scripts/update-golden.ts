// Rewrites fixtures/golden/ from fixtures/log/sessions.ndjson. Review the diff before committing:
// a golden change is a change in what engram derives from the same history.
//   npm run build && node dist/scripts/update-golden.js
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectFixtureLog } from './project-fixture-log.js';

const repo = resolve(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'engram-golden-'));
try {
  const roots = await projectFixtureLog(join(repo, 'fixtures', 'log', 'sessions.ndjson'), work);
  const golden = join(repo, 'fixtures', 'golden');
  rmSync(golden, { recursive: true, force: true });
  cpSync(roots.views, join(golden, 'views'), { recursive: true });
  cpSync(roots.claude, join(golden, 'claude'), { recursive: true });
  process.stderr.write(`wrote ${golden}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
