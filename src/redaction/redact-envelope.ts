/**
 * The one door for redaction (DESIGN.md invariant 3): the log's append passes every event
 * through here, whoever made it — hooks (which redacted already: a second pass leaves their text
 * as it is), MCP and CLI `remember`, `import`, files adopted or reconciled from disk, routes,
 * backfill, the reactors, a log migration. What the log never holds, no projection can show:
 * memory files, MEMORY.md, the recall and distiller indexes are all made from the log.
 *
 * Every string of an event's `data` passes the text rules. A string held under a key that names
 * a secret goes whole (`{"password": "hunter2"}`), as the hooks do it, with one care: engram's own
 * field names are not evidence (a `matchKey` holds a hash, which looks generated), so outside
 * free-form values only a strong name counts, and no event field engram declares is one
 * (test/redact-envelope.test.ts checks the catalog). Free-form values are those of a `{key,
 * value}` pair (a memory file's frontmatter fields, kept as such pairs), where the pair's key
 * names the value and every name inside it counts, weak ones too.
 *
 * A marker can be longer than what it replaces, and a field may be at its schema's cap: an event
 * whose redacted data its schema refuses is redacted again with no string growing (see
 * redactDeepNoLonger), so redaction never makes an event unreadable.
 */
import { BUILD_ID } from '../build-id.js';
import { knownDefinitions } from '../events/catalog.js';
import type { EventDefinition } from '../events/define-event.js';
import type { Envelope } from '../events/envelope.js';
import { hookEvents } from '../events/hook-events.js';
import { capText, redactCapped } from './redact-capped.js';
import { redactText } from './redact.js';
import { classifyName } from './redaction-names.js';
import { redactValueNamed } from './redaction-rules.js';

type Field = (text: string, key: string | undefined, freeForm: boolean) => string;

// A table built once, on first use (a hook that redacts nothing never pays for it), and never changed.
let definitions: Map<string, EventDefinition> | undefined;
const definitionOf = (type: string): EventDefinition | undefined =>
  (definitions ??= new Map(knownDefinitions.map((definition) => [definition.type, definition]))).get(type);

/** The events with their data redacted; an event with nothing to redact is returned as it is. */
export function redactEvents(events: readonly Envelope[]): Envelope[] {
  return events.map((event) => redactEnvelope(event));
}

// A hook of this very build redacted its event with these rules, every field (redactEventData),
// and redaction is idempotent: a second pass would return it unchanged, at a cost ingest cannot
// afford (a hundred rules' checks per string, some thousand events a second). Events of other
// builds, and every event a hook did not make, take the pass.
const HOOK_TYPES = new Set<string>(hookEvents.map((definition) => definition.type));
const redactedByOwnHook = (event: Envelope): boolean => event.producer === BUILD_ID && HOOK_TYPES.has(event.type);

/** One event with its data redacted; the same object when nothing in it changed. */
export function redactEnvelope<E extends Envelope>(event: E, options: { always?: boolean } = {}): E {
  if (!options.always && redactedByOwnHook(event)) return event;
  const data = walk(event.data, undefined, false, redactField);
  if (data === event.data) return event;
  const definition = definitionOf(event.type);
  // Checked only at the version this build writes; an older or unknown event gets the variant
  // that cannot break any cap it had.
  const fits =
    definition !== undefined && event.schemaVersion === definition.schemaVersion
      ? definition.data.safeParse(data).success || !definition.data.safeParse(event.data).success
      : false;
  return { ...event, data: fits ? data : walk(event.data, undefined, false, redactFieldNoLonger) };
}

function redactField(text: string, key: string | undefined, freeForm: boolean): string {
  const redacted = redactText(text);
  if (redacted !== text || key === undefined) return redacted;
  const cls = classifyName(key);
  return cls === 'strong' || (freeForm && cls === 'weak') ? redactValueNamed(key, text) : text;
}

/** `redactField`, except that nothing comes out longer than it went in (see redactDeepNoLonger). */
function redactFieldNoLonger(text: string, key: string | undefined, freeForm: boolean): string {
  const redacted = redactField(text, key, freeForm);
  if (redacted.length <= text.length) return redacted;
  const capped = redactCapped(text, text.length);
  return capped === text ? capText(redacted, text.length) : capped;
}

function walk(value: unknown, key: string | undefined, freeForm: boolean, field: Field): unknown {
  if (typeof value === 'string') return field(value, key, freeForm);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = walk(item, undefined, freeForm, field);
      if (next !== item) (copy ??= value.slice())[i] = next;
    });
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const record = value as Record<string, unknown>;
  // `{key: "password", value: "hunter2"}`: the pair's key names its value.
  const pairKey = typeof record.key === 'string' && 'value' in record ? record.key : undefined;
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(record)) {
    const next = pairKey !== undefined && k === 'value' ? walk(v, pairKey, true, field) : walk(v, k, freeForm, field);
    if (next !== v) (copy ??= { ...record })[k] = next;
  }
  return copy ?? value;
}
