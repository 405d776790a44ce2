// Writes fixtures/recall/: the recall evaluation set. Deterministic (one seeded generator), so a
// rerun writes the same bytes; review the diff before committing a change to it.
//   npm run build && node dist/scripts/generate-recall-fixtures.js
//
// Memories are Claude Code memory files (engram's fields under `metadata:`, `memory_id` among
// them), some with a graph sidecar `_graph/<file>.json`, some provisional, superseded or archived
// (never the answer to anything). Queries are JSON lines {id, text, project, relevant, kind}:
//   lexical     shares words with the memory it asks for, phrased as a question;
//   paraphrase  shares no content word with any memory it counts as relevant (checked here);
//   entity      names a person, component or ticket; relevant: every active memory naming it;
//   none        a question about a topic that project does not have: should recall nothing.
// Queries are split into dev (choose thresholds there) and test (report there), half of each kind.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderMemoryFile, type ExtraField } from '../src/memories/memory-file.js';
import type { MemoryType, Tier } from '../src/events/memory-kinds.js';
import { projectSlug } from '../src/paths.js';
import { fileNameFor } from '../src/projections/memories/memory-row.js';
import { analyze } from '../src/indexes/query-words.js';
import { GLOBAL_FACTS, GLOBAL_UNANSWERABLE, PROJECTS, SYMPTOMS, type EntityKind, type Fact, type ProjectVocab, type Thing } from './recall-fixture-vocab.js';
import { seededRandom as rng } from '../bench/seeded-random.js';

const repo = resolve(import.meta.dirname, '..', '..');
const out = join(repo, 'fixtures', 'recall');

interface Draft {
  id: string;
  /** '' for a global memory. */
  project: string;
  name: string;
  description: string;
  type: MemoryType;
  tier?: Tier;
  body: string;
  entities: Array<readonly [string, EntityKind]>;
  relations: Array<{ src: string; rel: string; dst: string }>;
  status: 'active' | 'provisional' | 'superseded';
  supersededBy?: string;
  archived?: boolean;
  lexical: string[];
  paraphrase: string[];
}

interface Query {
  id: string;
  text: string;
  project: string;
  relevant: string[];
  kind: 'lexical' | 'paraphrase' | 'entity' | 'none';
}

const random = rng(20261201);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const chance = (p: number) => random() < p;
const shuffle = <T>(xs: readonly T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};
const called = (thing: Thing) => (thing.alias && chance(0.5) ? thing.alias : thing.name);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const CAUSES = [
  'a lock held across an HTTP call',
  'a missing unique constraint',
  'an unbounded in-memory queue',
  'a client timeout left at zero',
  'a shared mutable map without synchronisation',
  'an off-by-one in pagination',
  'retries without jitter',
  'reading the clock in local time',
];
const SHIPPING = [
  'a tagged release and the canary pipeline',
  'merging to main, then the manual promote button in CI',
  'the Friday release train',
  'a blue-green switch after the smoke checks pass',
  'a staged rollout to 5 %, then half, then everyone',
];
const FIXES = [
  'added a regression test that reproduces it',
  'guarded it behind a feature flag first, then removed the flag',
  'the fix was two lines; the test took the afternoon',
  'backfilled the affected rows with a one-off script',
  'added an alert so it pages before customers notice',
];

function projectDrafts(p: ProjectVocab, short: string): Draft[] {
  const drafts: Draft[] = [];
  let n = 0;
  const id = (family: string) => `${short}-${family}-${String(++n).padStart(3, '0')}`;
  const draft = (d: Omit<Draft, 'project' | 'status' | 'relations'> & Partial<Pick<Draft, 'relations'>>) =>
    drafts.push({ relations: [], status: 'active', project: p.cwd, ...d });

  // Who owns what: each person one or two components.
  p.people.forEach((person, i) => {
    for (const component of [p.components[i % p.components.length]!, ...(i < 2 ? [p.components[(i + 3) % p.components.length]!] : [])]) {
      const c = called(component);
      draft({
        id: id('owner'),
        name: pick([`${person.name} owns ${component.name}`, `Ask ${person.name} about ${c}`, `${cap(c)} reviews go to ${person.name}`]),
        description: pick([`${person.name} is the owner of ${component.name}; changes need their review`, `${person.name} knows the history of ${c} and approves its changes`]),
        type: 'reference',
        body: `Changes to ${c} need ${person.name}'s review. ${pick(['They are in the weekly sync on Mondays.', 'Ping them on the team channel rather than by email.', 'They wrote most of the original design doc.'])}\n`,
        entities: [[person.name, 'person'], [component.name, 'service']],
        relations: [{ src: person.name, rel: 'related_to', dst: component.name }],
        lexical: [`who reviews changes to ${component.name}`, `who owns ${c}?`],
        paraphrase: [`who is the go-to for ${component.gloss}`, `whose approval do I need for ${component.gloss}`],
      });
    }
  });

  // Where each component's settings live.
  p.components.forEach((component, i) => {
    const file = p.files[i % p.files.length]!;
    const c = called(component);
    draft({
      id: id('config'),
      name: `${cap(component.name)} configuration`,
      description: pick([`${c} reads its settings from ${file.name}`, `settings for ${c} live in ${file.name}; env vars override them`]),
      type: 'project',
      tier: 'fact',
      body: `Defaults are in \`${file.name}\`; environment variables override them. Restart ${c} after a change, it does not hot-reload.\n`,
      entities: [[component.name, 'service'], [file.name, 'file']],
      relations: [{ src: file.name, rel: 'configures', dst: component.name }],
      lexical: [`where is the ${component.name} config`, `${c} settings file location`],
      paraphrase: [`which place holds the knobs for ${component.gloss}`],
    });
  });

  // How to run each suite, and which are flaky.
  p.tests.forEach((test, i) => {
    draft({
      id: id('test'),
      name: `Run the ${test.name} with ${test.cmd.split(' ').slice(0, 2).join(' ')}`,
      description: `${test.name} need ${test.needs}`,
      type: 'project',
      tier: 'procedural',
      body: `Use \`${test.cmd}\`. The ${test.name} need ${test.needs}; without it they time out with confusing errors.\n`,
      entities: [[test.cmd, 'command']],
      lexical: [`how do I run the ${test.name}`, `${test.name} command`],
      paraphrase: [`what is the incantation for ${test.gloss}`],
    });
    if (i < 2) {
      const symptom = SYMPTOMS[(i * 5 + p.cwd.length) % SYMPTOMS.length]!;
      draft({
        id: id('flaky'),
        name: `${cap(test.name)} are flaky`,
        description: `${test.name} fail intermittently because of ${symptom.name} in fixtures`,
        type: 'project',
        body: `Rerun once before investigating. Root cause: ${symptom.name} in the shared fixtures; not fixed yet.\n`,
        entities: [],
        lexical: [`${test.name} flaky intermittent failures`],
        paraphrase: [`${test.gloss} go red at random — is that known?`],
      });
    }
  });

  // Environment variables.
  p.envVars.forEach((env, i) => {
    const component = p.components[(i + 1) % p.components.length]!;
    draft({
      id: id('env'),
      name: `${env.name} must be set`,
      description: `${called(component)} refuses to start without ${env.name}`,
      type: 'project',
      tier: 'fact',
      body: `Put ${env.name} in .env.local; CI reads it from the secret store. Without it startup panics with a nil dereference.\n`,
      entities: [[env.name, 'concept'], [component.name, 'service']],
      lexical: [`${env.name} missing at startup`, `do I need ${env.name} locally`],
      paraphrase: [`what must be exported for ${env.gloss}`],
    });
  });

  // Incidents: a component, a symptom, a cause; episodes.
  const incidents = 17;
  const seen = new Set<string>();
  for (let i = 0; i < incidents; i++) {
    const component = p.components[i % p.components.length]!;
    // Never the same failure of the same component twice: a query for one would fit both.
    let s = (i * 7 + short.length) % SYMPTOMS.length;
    while (seen.has(`${component.name}:${s}`)) s = (s + 1) % SYMPTOMS.length;
    seen.add(`${component.name}:${s}`);
    const symptom = SYMPTOMS[s]!;
    const cause = pick(CAUSES);
    const file = p.files[(i + 2) % p.files.length]!;
    const person = p.people[i % p.people.length]!;
    const c = called(component);
    draft({
      id: id('incident'),
      name: pick([`Fixed ${symptom.name} in ${component.name}`, `${cap(symptom.name)} in ${c}`, `${cap(c)}: ${symptom.name}`]),
      description: `${c} had ${symptom.name}, caused by ${cause}`,
      type: 'project',
      tier: 'episodic',
      body: `Symptom: ${symptom.name} under load. Cause: ${cause}. Fix in \`${file.name}\`; ${pick(FIXES)}. ${person.name} paired on it.\n`,
      entities: [[component.name, 'service'], [file.name, 'file'], [person.name, 'person']],
      relations: [{ src: file.name, rel: 'part_of', dst: component.name }],
      lexical: [`${symptom.name} in ${component.name}`, `what caused the ${c} ${symptom.name}`],
      paraphrase: [`${symptom.gloss}, in ${component.gloss}`, `have we seen ${symptom.gloss} before with ${component.gloss}`],
    });
  }

  // How each component ships.
  for (const component of p.components) {
    const c = called(component);
    const how = pick(SHIPPING);
    draft({
      id: id('deploy'),
      name: pick([`Deploy ${component.name}`, `Shipping ${c}`, `Releasing ${component.name}`]),
      description: `${c} ships by ${how}`,
      type: 'project',
      tier: 'procedural',
      body: `Steps: ${how}. Watch the error rate for fifteen minutes before promoting; rollback is re-running the previous tag.\n`,
      entities: [[component.name, 'service']],
      lexical: [`how do I deploy ${component.name}`, `${c} rollback steps`],
      paraphrase: [`how do changes to ${component.gloss} reach users`],
    });
  }

  for (const d of p.decisions) {
    draft({
      id: id('decision'),
      name: `Chose ${d.chose} over ${d.over}`,
      description: `${d.chose} for ${d.purpose}: ${d.why}`,
      type: pick(['project', 'insight'] as const),
      tier: 'fact',
      body: `We chose ${d.chose} over ${d.over} for ${d.purpose} because ${d.why}. Revisit only with a benchmark.\n`,
      entities: [[d.chose, 'tool'], [d.over, 'tool']],
      lexical: [`why ${d.chose} instead of ${d.over}`, `${d.purpose} choice ${d.chose}`],
      paraphrase: [d.gloss],
    });
  }

  for (const g of p.gotchas) {
    draft({
      id: id('gotcha'),
      name: `Pin ${g.tool} to ${g.good}`,
      description: `${g.tool} ${g.bad} breaks ${g.breaks}`,
      type: 'project',
      tier: 'rule',
      body: `${g.tool} ${g.bad} breaks ${g.breaks}. Keep ${g.good} until upstream fixes it; renovate is told to skip it.\n`,
      entities: [[g.tool, 'tool']],
      lexical: [`upgrade ${g.tool} to ${g.bad}?`, `${g.tool} version pinned`],
      paraphrase: [g.gloss],
    });
  }

  for (const d of p.dashboards) {
    const slug = d.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    draft({
      id: id('link'),
      name: d.name,
      description: `bookmark: ${d.name}`,
      type: 'reference',
      body: `https://internal.example.com/${short}/${slug}\n`,
      entities: [],
      lexical: [`link to the ${d.name}`],
      paraphrase: [`where can I see ${d.gloss}`],
    });
  }

  p.tickets.forEach((t, i) => {
    const component = p.components[(i + 2) % p.components.length]!;
    draft({
      id: id('ticket'),
      name: `${t.name} is still open`,
      description: `${t.name} tracks ${t.gloss}`,
      type: 'project',
      body: `Workaround until ${t.name} lands: restart ${called(component)} and tell support.\n`,
      entities: [[t.name, 'ticket'], [component.name, 'service']],
      lexical: [`status of ${t.name} workaround`],
      paraphrase: [],
    });
  });

  for (const fact of p.facts) draft(factDraft(fact, id('fact'), p.cwd));

  // Never an answer: guesses awaiting corroboration, replaced decisions, archived episodes.
  for (let i = 0; i < 5; i++) {
    const component = p.components[(i * 2) % p.components.length]!;
    const symptom = SYMPTOMS[(i * 3 + 1) % SYMPTOMS.length]!;
    draft({
      id: id('guess'),
      name: `Maybe ${symptom.name} in ${component.name}`,
      description: `one session suspected ${symptom.name} in ${component.name}`,
      type: 'project',
      body: `Unconfirmed: ${symptom.name} in ${component.name}, seen once.\n`,
      entities: [[component.name, 'service']],
      lexical: [],
      paraphrase: [],
    });
    drafts.at(-1)!.status = 'provisional';
  }
  for (const d of p.decisions.slice(0, 2)) {
    draft({
      id: id('old'),
      name: `Use ${d.over} for ${d.purpose}`,
      description: `${d.over} for ${d.purpose}`,
      type: 'project',
      body: `We use ${d.over} for ${d.purpose}.\n`,
      entities: [[d.over, 'tool']],
      lexical: [],
      paraphrase: [],
    });
    Object.assign(drafts.at(-1)!, { status: 'superseded', supersededBy: `Chose ${d.chose} over ${d.over}` });
  }
  const component = p.components[0]!;
  draft({
    id: id('archived'),
    name: `Old ${component.name} outage notes`,
    description: `notes from an outage of ${component.name} last year`,
    type: 'project',
    tier: 'episodic',
    body: `Long resolved; kept for history.\n`,
    entities: [[component.name, 'service']],
    lexical: [],
    paraphrase: [],
  });
  drafts.at(-1)!.archived = true;
  return drafts;
}

function factDraft(fact: Fact, id: string, project: string): Draft {
  return {
    id,
    project,
    name: fact.name,
    description: fact.description,
    type: fact.type,
    ...(fact.type === 'feedback' || fact.type === 'user' ? { tier: 'preference' as const } : {}),
    body: fact.body,
    entities: fact.entities ? [...fact.entities] : [],
    relations: [],
    status: 'active',
    lexical: [fact.ask],
    paraphrase: [fact.gloss],
  };
}

const drafts: Draft[] = [];
for (const p of PROJECTS) drafts.push(...projectDrafts(p, p.cwd.split('/').at(-1)!.split('-')[0]!));
GLOBAL_FACTS.forEach((fact, i) => drafts.push(factDraft(fact, `global-fact-${String(i + 1).padStart(3, '0')}`, '')));

const isAnswer = (d: Draft) => d.status === 'active' && !d.archived;
const slugOf = (project: string) => (project === '' ? 'global' : projectSlug(project));

// Files: one directory per project, memory files in Claude Code's format.
rmSync(out, { recursive: true, force: true });
const DAY = 86_400_000;
const start = Date.parse('2026-01-05T09:00:00.000Z');
const taken = new Map<string, Set<string>>();
const sidecars = new Set<string>();
const tagged = new Map<string, string[]>();
for (const d of drafts) {
  const slug = slugOf(d.project);
  const names = taken.get(slug) ?? new Set<string>();
  taken.set(slug, names);
  const file = fileNameFor(d.name, undefined, names);
  names.add(file.toLowerCase());
  const created = new Date(start + Math.floor(random() * 320) * DAY + Math.floor(random() * 36_000_000));
  const reinforced = new Date(created.getTime() + Math.floor(random() * 40) * DAY);
  const extraTop: ExtraField[] = [];
  if (d.entities.length > 0 && chance(0.15)) {
    const tags = d.entities.slice(0, 2).map(([name]) => name.toLowerCase());
    extraTop.push({ key: 'tags', value: tags, flow: true });
    tagged.set(d.id, tags);
  }
  const content = renderMemoryFile({
    name: d.name,
    description: d.description,
    type: d.type,
    modified: reinforced.toISOString(),
    ...(d.tier ? { tier: d.tier } : {}),
    confidence: d.status === 'provisional' ? 0.3 : Math.round((0.5 + random() * 0.5) * 100) / 100,
    reinforced: d.status === 'provisional' ? 0 : Math.floor(random() * 4),
    last_reinforced: reinforced.toISOString(),
    status: d.status,
    ...(d.supersededBy ? { superseded_by: d.supersededBy, superseded_at: reinforced.toISOString() } : {}),
    ...(chance(0.05) && d.status === 'active' ? { pinned: true } : {}),
    created: created.toISOString(),
    extra: { top: extraTop, metadata: [{ key: 'memory_id', value: d.id }] },
    body: d.body,
  });
  const dir = join(out, 'memories', slug, d.archived ? '_archive' : '');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), content);
  // Two in three memories that name something came through the distiller, which writes a graph.
  if (d.entities.length > 0 && chance(0.67)) {
    mkdirSync(join(out, 'memories', slug, '_graph'), { recursive: true });
    const graph = { memoryId: d.id, file, entities: d.entities.map(([name, type]) => ({ name, type })), relations: d.relations };
    writeFileSync(join(out, 'memories', slug, '_graph', `${file}.json`), `${JSON.stringify(graph, null, 2)}\n`);
    sidecars.add(d.id);
  }
}

// Queries.
const words = (d: Draft) => new Set(analyze([d.name, d.description, d.body, ...d.entities.map(([name]) => name), ...(tagged.get(d.id) ?? [])].join('\n')));
const FILLERS = [(q: string) => q, (q: string) => `${q}?`, (q: string) => `quick question: ${q}`, (q: string) => `${q} — I forgot`, (q: string) => `hey, ${q}`, (q: string) => `remind me ${q}`];
const queries: Omit<Query, 'id'>[] = [];
let droppedParaphrases = 0;
const askFrom = (d: Draft) => (d.project === '' ? pick(PROJECTS).cwd : d.project);
for (const d of drafts.filter(isAnswer)) {
  if (d.lexical.length > 0 && chance(d.project === '' ? 0.5 : 0.24)) queries.push({ text: pick(FILLERS)(pick(d.lexical)), project: askFrom(d), relevant: [d.id], kind: 'lexical' });
  const para = d.paraphrase.filter((text) => {
    const own = words(d);
    return analyze(text).every((w) => !own.has(w));
  });
  if (d.paraphrase.length > 0 && para.length === 0) droppedParaphrases++;
  if (para.length > 0 && chance(d.project === '' ? 0.5 : 0.2)) queries.push({ text: pick(para), project: askFrom(d), relevant: [d.id], kind: 'paraphrase' });
}
// Entity questions: people, components and tickets; every active memory naming one is relevant.
const ENTITY_ASKS = [(x: string) => `what do the notes say about ${x} ownership and history`, (x: string) => `anything I should know before touching ${x}?`, (x: string) => `context on ${x} please, past problems included`, (x: string) => `${x}: who, what, known issues`];
for (const p of PROJECTS) {
  const things = [...p.people.slice(0, 2).map((t) => t.name), ...p.components.slice(0, 3).map((t) => t.name), p.tickets[0]!.name];
  for (const name of things) {
    const lower = name.toLowerCase();
    const relevant = drafts
      .filter((d) => d.project === p.cwd && isAnswer(d))
      .filter((d) => (sidecars.has(d.id) && d.entities.some(([e]) => e === name)) || `${d.name}\n${d.description}\n${d.body}`.toLowerCase().includes(lower))
      .map((d) => d.id);
    if (relevant.length > 0) queries.push({ text: pick(ENTITY_ASKS)(name), project: p.cwd, relevant, kind: 'entity' });
  }
  for (const text of p.unanswerable) queries.push({ text, project: p.cwd, relevant: [], kind: 'none' });
}
for (const text of GLOBAL_UNANSWERABLE) queries.push({ text, project: pick(PROJECTS).cwd, relevant: [], kind: 'none' });

const numbered: Query[] = shuffle(queries).map((q, i) => ({ id: `q${String(i + 1).padStart(3, '0')}`, ...q }));
const line = (q: Query) => `${JSON.stringify({ id: q.id, text: q.text, project: q.project, relevant: q.relevant, kind: q.kind })}\n`;
// Half of each kind to each side, so dev and test ask the same mix.
const side = new Map<string, number>();
const isDev = (q: Query) => {
  const n = side.get(q.kind) ?? 0;
  side.set(q.kind, n + 1);
  return n % 2 === 0;
};
const devIds = new Set(numbered.filter(isDev).map((q) => q.id));
writeFileSync(join(out, 'queries-dev.jsonl'), numbered.filter((q) => devIds.has(q.id)).map(line).join(''));
writeFileSync(join(out, 'queries-test.jsonl'), numbered.filter((q) => !devIds.has(q.id)).map(line).join(''));

const count = (kind: Query['kind']) => numbered.filter((q) => q.kind === kind).length;
process.stderr.write(
  `wrote ${out}: ${drafts.length} memories (${drafts.filter(isAnswer).length} active, ${sidecars.size} with a graph), ` +
    `${numbered.length} queries (lexical ${count('lexical')}, paraphrase ${count('paraphrase')}, entity ${count('entity')}, none ${count('none')}); ` +
    `${droppedParaphrases} memories had no paraphrase free of their words\n`,
);
