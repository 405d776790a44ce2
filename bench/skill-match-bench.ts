// `node dist/bench/skill-match-bench.js`: where the skill matcher's cosine threshold sits on the
// embedded model (USE Lite). A hand-made set of own skills and memories, each memory labelled with
// the skill it belongs in or none; prints each memory's closest skill and cosine, and the
// threshold that decides "update <skill>" vs "new skill" best on this set. A calibration aid, not
// a timed test: rerun it when the model or the texts the matcher embeds change.
import { match } from '../src/reactors/skill-matcher.js';
import { useLiteEmbedder } from '../src/recall/embedders/use-lite-embedder.js';
import type { OwnSkill } from '../src/projections/skills/skill-rows.js';

const skill = (name: string, description: string): OwnSkill => ({ name, scope: 'user', description, hash: name, captured: false, pinned: false });

const skills = [
  skill('deploy-staging', 'Deploy the service to the staging cluster through the deploy-staging workflow'),
  skill('db-migrations', 'Write and run database migrations for the ledger with the migration tool'),
  skill('release-notes', 'Draft release notes from merged pull requests since the last tag'),
  skill('python-env', 'Set up and run Python tooling in this repo with uv'),
  skill('frontend-components', 'Build React components with the design system and its tokens'),
  skill('incident-triage', 'Triage a production incident: dashboards, logs, paging and the runbook'),
  skill('code-review', 'Review a pull request for correctness, tests and style'),
  skill('terraform-apply', 'Plan and apply Terraform changes through CI, never from a laptop'),
];

/** [memory description, the skill it belongs in or undefined]. */
const memories: Array<[string, string | undefined]> = [
  ['Staging deploys go through the deploy-staging GitHub workflow, not kubectl', 'deploy-staging'],
  ['Never deploy to staging on Fridays after 4pm', 'deploy-staging'],
  ['Every migration touching ledger entries needs a backfill script and a review', 'db-migrations'],
  ['Migrations must be reversible; write the down migration too', 'db-migrations'],
  ['Release notes list breaking changes first, then features, then fixes', 'release-notes'],
  ['Use uv run for anything Python in this repo; the system python is too old', 'python-env'],
  ['Run ruff format before committing Python code', 'python-env'],
  ['Use the EmptyState component from the design system, not a custom div', 'frontend-components'],
  ['Colors come from design tokens, never hex literals in components', 'frontend-components'],
  ['During an incident, page the on-call for payments before touching the database', 'incident-triage'],
  ['Reviews ask for a test for every bug fix', 'code-review'],
  ['Terraform state changes are applied by CI only; never run terraform apply locally', 'terraform-apply'],
  ['The user prefers short answers without preamble', undefined],
  ['Answer in British English', undefined],
  ['Use pnpm, not npm, in the web dashboard', undefined],
  ['Money amounts are integer minor units, never floats', undefined],
  ['Prefer composition over inheritance in the domain model', undefined],
  ['Ask Hana about anything related to the ingress controller', undefined],
  ['Commit messages use the imperative mood and reference the ticket', undefined],
  ['Keep functions under 40 lines where it reads well', undefined],
];

const embedder = useLiteEmbedder();
const verdicts = await match(memories.map(([text]) => text), skills, embedder, -1);
await embedder.close();

const rows = memories.map(([text, wanted], i) => {
  const verdict = verdicts[i]!;
  return { text, wanted, closest: verdict.skill?.name, cosine: verdict.cosine ?? -1 };
});
for (const row of rows) {
  console.log(`${row.cosine.toFixed(3)}  ${(row.closest ?? '-').padEnd(20)} ${row.wanted === undefined ? '(new)' : row.wanted === row.closest ? '(right skill)' : `(wanted ${row.wanted})`}  ${row.text}`);
}
// A verdict is right when: the cosine clears the threshold and the closest is the wanted skill, or it does not and none was wanted.
let best = { threshold: 0, right: -1 };
for (let t = 0.3; t <= 0.95; t += 0.01) {
  const right = rows.filter((row) => (row.cosine >= t ? row.wanted !== undefined && row.wanted === row.closest : row.wanted === undefined)).length;
  if (right > best.right) best = { threshold: Math.round(t * 100) / 100, right };
}
const at70 = rows.filter((row) => (row.cosine >= 0.7 ? row.wanted !== undefined && row.wanted === row.closest : row.wanted === undefined)).length;
console.log(`\nbest threshold on this set: ${best.threshold} (${best.right}/${rows.length} right); at 0.70: ${at70}/${rows.length} right`);
