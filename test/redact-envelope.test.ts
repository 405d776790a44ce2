import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knownDefinitions } from '../src/events/catalog.js';
import type { Envelope } from '../src/events/envelope.js';
import { ANSWER_CAP, ERROR_CAP, POINTER_CAP, PromptSubmitted, ToolFailed, TurnStopped } from '../src/events/hook-events.js';
import { toolInputPointer } from '../src/capture/tool-input-pointer.js';
import { redactCapped } from '../src/redaction/redact-capped.js';
import { redactText } from '../src/redaction/redact.js';
import { MemoryProposed } from '../src/events/memory-events.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { redactEnvelope } from '../src/redaction/redact-envelope.js';
import { redactEventData } from '../src/redaction/redact-event-data.js';
import { classifyName } from '../src/redaction/redaction-names.js';
import { secretCasePerShape } from './redaction-corpus.js';

const PG = 'postgres://admin:s3cr3t@db:5432/x';
const AKIA = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const STRIPE = 'sk_live_FAKE51HqLyjWDarjtT1zdp7dcEXAMPLE00';
const HASH = 'a3f1c9e07b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f0a2c4e6b8d0f1a';

const event = (type: string, schemaVersion: number, data: unknown, extra: Partial<Envelope> = {}): Envelope => ({
  id: `test-${type}-000001`, type, schemaVersion, ts: '2026-11-10T10:00:00.000Z', session: 's', project: '/p', data, ...extra,
});

const proposal = (body: string, more: Record<string, unknown> = {}) =>
  event(MemoryProposed.type, MemoryProposed.schemaVersion, {
    memoryId: 'agent:1', origin: 'agent', scope: 'project', name: 'Staging database', description: 'how to reach staging',
    type: 'reference', body, status: 'active', confidence: 0.6, ...more,
  });

/** Every field name an event's schema declares, at any depth. */
function declaredNames(schema: unknown, names = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return names;
  seen.add(schema);
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (!def) return names;
  const shape = def.shape as Record<string, unknown> | undefined;
  if (shape) for (const [name, field] of Object.entries(shape)) names.add(name) && declaredNames(field, names, seen);
  for (const value of Object.values(def)) {
    if (Array.isArray(value)) value.forEach((item) => declaredNames(item, names, seen));
    else declaredNames(value, names, seen);
  }
  return names;
}

describe('the one door: redactEnvelope', () => {
  it('finds no field engram declares named like a secret, so only free-form values are judged by their names', () => {
    const names = new Set<string>();
    for (const definition of knownDefinitions) declaredNames(definition.data, names);
    expect(names.size).toBeGreaterThan(100);
    expect([...names].filter((name) => classifyName(name) === 'strong')).toEqual([]);
  });

  it('redacts every string of the data, keeps what holds none, and the envelope', () => {
    const given = proposal(`staging is ${PG}; key id ${AKIA}, secret ${AWS_SECRET}\n`, { sourceHash: HASH });
    const out = redactEnvelope(given);
    const data = out.data as Record<string, unknown>;
    expect(data.body).toBe('staging is postgres://admin:[REDACTED:url-credentials]@db:5432/x; key id [REDACTED:aws-key], secret [REDACTED:aws-secret]\n');
    expect(data.sourceHash).toBe(HASH);
    expect({ ...out, data: undefined }).toEqual({ ...given, data: undefined });
    expect(redactEnvelope(out)).toBe(out);
    // Nothing to redact: the very same object, no copy.
    const plain = proposal('use pnpm, not npm\n');
    expect(redactEnvelope(plain)).toBe(plain);
  });

  it('judges a frontmatter field by its own name, and engram\'s own hash fields not at all', () => {
    const given = proposal('notes\n', {
      extra: {
        top: [{ key: 'password', value: 'hunter2-staging' }, { key: 'related', value: ['[[db]]'] }],
        metadata: [{ key: 'deploy', value: { api_key: '4d7f0c9e2b1a48e6b3c5', region: 'eu-west-1' } }],
      },
    });
    const extra = (redactEnvelope(given).data as { extra: { top: Array<{ value: unknown }>; metadata: Array<{ value: unknown }> } }).extra;
    expect(extra.top[0]!.value).toBe('[REDACTED:assignment]');
    expect(extra.top[1]!.value).toEqual(['[[db]]']);
    expect(extra.metadata[0]!.value).toEqual({ api_key: '[REDACTED:assignment]', region: 'eu-west-1' });
    const matched = event('SkillMatched', 1, { memoryId: 'm', matchKey: HASH, model: 'x', threshold: 0.7 });
    expect(redactEnvelope(matched)).toBe(matched);
  });

  it('never makes an event unreadable: a field at its cap stays within it', () => {
    const name = `a${'x'.repeat(10)} ${STRIPE}`;
    const definition = knownDefinitions.find((d) => d.type === MemoryProposed.type)!;
    const given = proposal('body\n', { name });
    // The name at its cap would grow past it with a marker longer than the key: cut, never refused.
    const capped = proposal('body\n', { name: `${'n'.repeat(200 - STRIPE.length - 1)} ${STRIPE}` });
    for (const e of [given, capped]) {
      expect(definition.data.safeParse(e.data).success).toBe(true);
      const out = redactEnvelope(e);
      expect(definition.data.safeParse(out.data).success).toBe(true);
      expect(JSON.stringify(out)).not.toContain('FAKE51Hq');
    }
  });

  it('leaves what a hook redacted as it is: a second pass is the identity', () => {
    for (const c of secretCasePerShape) {
      const built = c.where === 'error'
        ? { definition: ToolFailed, data: { tool: 'Bash', input: 'deploy', error: c.text } }
        : { definition: PromptSubmitted, data: { prompt: c.text, chars: c.text.length, truncated: false } };
      const checked = redactEventData(built.definition, built.data);
      if (!checked.ok) continue;
      const hooked = event(built.definition.type, built.definition.schemaVersion, checked.data);
      expect(redactEnvelope(hooked, { always: true }), c.name).toBe(hooked);
    }
  });

  it('takes a hook\'s settled fields as a full pass would leave them, and its pointers as redactCapped makes them', () => {
    const texts = [...secretCasePerShape.map((c) => c.text), 'npm test -- --run payments', 'Bash', 'toolu_01', '  spaced\n out  ', 'x'.repeat(POINTER_CAP + 10)];
    for (const text of texts) {
      const pointer = toolInputPointer('Bash', { command: text });
      // The formula before pointers skipped redactCapped's second pass when it had nothing to do.
      expect(pointer, text).toBe(redactCapped(redactText(text.slice(0, POINTER_CAP + 4096)).replace(/\s+/g, ' ').trim(), POINTER_CAP));
      const failed = { tool: redactCapped(text, 200), input: pointer, error: redactCapped(text, ERROR_CAP), toolUseId: redactCapped(text, 200) };
      expect(redactEventData(ToolFailed, failed, ['tool', 'input', 'error', 'toolUseId']), text).toEqual(redactEventData(ToolFailed, failed));
      const stopped = { stopHookActive: false, answerChars: text.length, answer: redactCapped(text, ANSWER_CAP) };
      expect(redactEventData(TurnStopped, stopped, ['answer']), text).toEqual(redactEventData(TurnStopped, stopped));
    }
  });
});

describe('the log\'s append is the door', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-door-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores every event redacted, whoever appends it, and an id once', async () => {
    const log = await LevelEventLog.open(join(dir, 'log'));
    const given = [
      proposal(`import of a note: ${STRIPE}\n`),
      event('ToolFailed', 1, { tool: 'Bash', input: 'aws s3 ls', error: `here are my keys: ${AKIA} ${AWS_SECRET}` }, { id: 'test-tool-failed-000002' }),
    ];
    const result = await log.append(given);
    expect(result.appended).toHaveLength(2);
    expect((await log.append(given)).duplicates).toHaveLength(2);
    const stored: unknown[] = [];
    for await (const batch of log.read()) stored.push(...batch);
    await log.close();
    const text = JSON.stringify(stored);
    for (const secret of [STRIPE, AKIA, AWS_SECRET, 'FAKE51Hq', 'wJalrXUt']) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:stripe-key]');
    expect(text).toContain('[REDACTED:aws-secret]');
  });
});
