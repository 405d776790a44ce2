import { TIERS, isTier } from '../events/memory-kinds.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { redactText } from '../redaction/redact.js';
import type { AnswerNote } from './answer-note.js';
import {
  ANSWER_CAPS,
  DESTINATIONS,
  ENTITY_TYPES,
  RELATION_NAMES,
  type Destination,
  type DistillAnswer,
  type DistillCandidate,
  type DistillGraph,
  type EntityType,
  type RawDistillAnswer,
  type RelationName,
} from '../events/distill-answer-schema.js';
import { neutraliseInjection } from './neutralise-injection.js';

export type SanitisedAnswer = { ok: true; answer: DistillAnswer; notes: AnswerNote[] } | { ok: false; reason: 'unsafe-episode'; detail: string };

/**
 * A schema-valid answer made fit to become memory files: instructions aimed at a model removed,
 * secrets redacted, every text capped, graphs held to their vocabulary, each change noted. The
 * episode is the one part that cannot be dropped: if nothing of its name or body survives, the
 * answer is refused.
 */
export function sanitiseAnswer(raw: RawDistillAnswer): SanitisedAnswer {
  const notes: AnswerNote[] = [];
  const episodeName = cleanText(raw.episode.name, 'episode.name', ANSWER_CAPS.name, true, notes);
  const episodeBody = cleanText(raw.episode.body, 'episode.body', ANSWER_CAPS.body, false, notes);
  if (episodeName === '' || episodeBody === '') {
    return { ok: false, reason: 'unsafe-episode', detail: `nothing left of the episode's ${episodeName === '' ? 'name' : 'body'} once sanitised` };
  }
  const episodeGraph = raw.episode.graph && cleanGraph(raw.episode.graph, 'episode.graph', notes);
  const answer: DistillAnswer = {
    episode: {
      name: episodeName,
      description: cleanText(raw.episode.description, 'episode.description', ANSWER_CAPS.description, true, notes),
      body: episodeBody,
      ...(episodeGraph ? { graph: episodeGraph } : {}),
    },
    candidates: [],
  };
  raw.candidates.forEach((candidate, i) => {
    const at = `candidates[${i}]`;
    const name = cleanText(candidate.name, `${at}.name`, ANSWER_CAPS.name, true, notes);
    const description = cleanText(candidate.description, `${at}.description`, ANSWER_CAPS.description, true, notes);
    const body = cleanText(candidate.body, `${at}.body`, ANSWER_CAPS.body, false, notes);
    // The promotion gate matches candidates on their description: one without is no candidate.
    if (name === '' || description === '' || body === '') {
      notes.push({ code: 'candidate-dropped', at, detail: `no ${name === '' ? 'name' : description === '' ? 'description' : 'body'} left once sanitised` });
      return;
    }
    const kept: DistillCandidate = { type: candidate.type, name, description, body, destination: destinationOf(candidate.destination, at, notes) };
    if (candidate.tier !== undefined) {
      if (isTier(candidate.tier)) kept.tier = candidate.tier;
      else notes.push({ code: 'tier-unknown', at: `${at}.tier`, detail: `${quote(candidate.tier)} is not one of ${TIERS.join(', ')}` });
    }
    const contradicts = candidate.contradicts === undefined ? undefined : cleanContradicts(candidate.contradicts, `${at}.contradicts`, notes);
    if (contradicts && contradicts.length > 0) kept.contradicts = contradicts;
    const graph = candidate.graph && cleanGraph(candidate.graph, `${at}.graph`, notes);
    if (graph) kept.graph = graph;
    answer.candidates.push(kept);
  });
  return { ok: true, answer, notes };
}

/**
 * Neutralised, then redacted, then capped, until none of them changes it (a cut can make a new
 * match: "you are nowhere" cut to "you are now…"); a name or description (`oneLine`) becomes a
 * single line first, so a line break cannot split an instruction. '' when nothing is left.
 */
function cleanText(raw: string, at: string, cap: number, oneLine: boolean, notes: AnswerNote[]): string {
  let text = oneLine ? raw.replace(/\s+/g, ' ') : raw;
  const rules = new Set<string>();
  let linesRemoved = 0;
  let redacted = false;
  let truncatedFrom: number | undefined;
  for (let round = 0; round < 3; round++) {
    const neutral = neutraliseInjection(text);
    for (const rule of neutral.rules) rules.add(rule);
    linesRemoved += neutral.linesRemoved;
    const trimmed = neutral.text.trim();
    const safe = redactText(trimmed);
    if (safe !== trimmed) redacted = true;
    const capped = safe.length > cap ? `${redactCapped(safe, cap - 1).trimEnd()}…` : safe;
    if (capped !== safe) truncatedFrom ??= safe.length;
    if (capped === text) break;
    text = capped;
  }
  if (rules.size > 0) {
    const lines = linesRemoved > 0 ? `; ${linesRemoved} line${linesRemoved === 1 ? '' : 's'} removed` : '';
    notes.push({ code: 'injection-removed', at, detail: `${[...rules].join(', ')}${lines}` });
  }
  if (redacted) notes.push({ code: 'redacted', at });
  if (truncatedFrom !== undefined) notes.push({ code: 'truncated', at, detail: `${truncatedFrom} → ${text.length} characters` });
  return text;
}

function destinationOf(raw: string | undefined, at: string, notes: AnswerNote[]): Destination {
  if (raw === undefined) return 'memory';
  if ((DESTINATIONS as readonly string[]).includes(raw)) return raw as Destination;
  notes.push({ code: 'destination-unknown', at: `${at}.destination`, detail: `${quote(raw)} is not one of ${DESTINATIONS.join(', ')}; memory kept` });
  return 'memory';
}

function cleanContradicts(raw: string | string[], at: string, notes: AnswerNote[]): string[] {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const entry of typeof raw === 'string' ? [raw] : raw) {
    const name = cleanText(entry, at, ANSWER_CAPS.name, true, notes);
    if (name === '' || kept.includes(name) || kept.length >= ANSWER_CAPS.contradicts) dropped.push(quote(entry));
    else kept.push(name);
  }
  if (dropped.length > 0) notes.push({ code: 'contradicts-dropped', at, detail: dropped.join(', ') });
  return kept;
}

/**
 * Entities of a known type, each name once, up to the cap; relations of a known name between
 * entities the graph lists (a relation to an entity of no type could not be placed), up to
 * theirs. Undefined when nothing is left.
 */
export function cleanGraph(raw: { entities: Array<{ name: string; type: string }>; relations: Array<{ src: string; rel: string; dst: string }> }, at: string, notes: AnswerNote[]): DistillGraph | undefined {
  const entities: DistillGraph['entities'] = [];
  const names = new Set<string>();
  raw.entities.forEach((entity, i) => {
    const where = `${at}.entities[${i}]`;
    const name = cleanText(entity.name, `${where}.name`, ANSWER_CAPS.entityName, true, notes);
    const why = !(ENTITY_TYPES as readonly string[]).includes(entity.type)
      ? `type ${quote(entity.type)} is not one of ${ENTITY_TYPES.join(', ')}`
      : name === ''
        ? 'no name left once sanitised'
        : names.has(name)
          ? `${quote(name)} listed before`
          : entities.length >= ANSWER_CAPS.entities
            ? `more than ${ANSWER_CAPS.entities} entities`
            : undefined;
    if (why) {
      notes.push({ code: 'entity-dropped', at: where, detail: why });
      return;
    }
    names.add(name);
    entities.push({ name, type: entity.type as EntityType });
  });
  const relations: DistillGraph['relations'] = [];
  const seen = new Set<string>();
  raw.relations.forEach((relation, i) => {
    const where = `${at}.relations[${i}]`;
    const src = cleanText(relation.src, `${where}.src`, ANSWER_CAPS.entityName, true, notes);
    const dst = cleanText(relation.dst, `${where}.dst`, ANSWER_CAPS.entityName, true, notes);
    const key = JSON.stringify([src, relation.rel, dst]);
    const why = !(RELATION_NAMES as readonly string[]).includes(relation.rel)
      ? `${quote(relation.rel)} is not one of ${RELATION_NAMES.join(', ')}`
      : !names.has(src) || !names.has(dst)
        ? `${quote(names.has(src) ? dst : src)} is not among the graph's entities`
        : seen.has(key)
          ? 'listed before'
          : relations.length >= ANSWER_CAPS.relations
            ? `more than ${ANSWER_CAPS.relations} relations`
            : undefined;
    if (why) {
      notes.push({ code: 'relation-dropped', at: where, detail: why });
      return;
    }
    seen.add(key);
    relations.push({ src, rel: relation.rel as RelationName, dst });
  });
  return entities.length === 0 && relations.length === 0 ? undefined : { entities, relations };
}

/** The model's own words in a note: short, redacted (notes are recorded too), quoted. */
function quote(text: string): string {
  const short = redactCapped(text, 40);
  return JSON.stringify(short.length < text.length ? `${short}…` : short);
}
