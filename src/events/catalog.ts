import type * as z from 'zod/mini';
import { EngramError } from '../errors.js';
import type { EventDefinition } from './define-event.js';
import type { Upcaster } from './define-upcaster.js';
import { describeIssues } from './describe-issues.js';
import { engramEvents } from './engram-events.js';
import type { Envelope, StoredEnvelope } from './envelope.js';
import { hookEvents } from './hook-events.js';
import { memoryEvents } from './memory-events.js';
import { distillEvents } from './distill-events.js';
import { transcriptEvents } from './transcript-events.js';
import { recallEvents } from './recall-events.js';
import { skillEvents } from './skill-events.js';
import { backfillEvents } from './backfill-events.js';
import { logEvents } from './log-events.js';
import { teamEvents } from './team-events.js';

type KnownDefinition =
  | (typeof hookEvents)[number]
  | (typeof engramEvents)[number]
  | (typeof memoryEvents)[number]
  | (typeof distillEvents)[number]
  | (typeof transcriptEvents)[number]
  | (typeof recallEvents)[number]
  | (typeof skillEvents)[number]
  | (typeof backfillEvents)[number]
  | (typeof logEvents)[number]
  | (typeof teamEvents)[number];

/** One event as projectors see it: current schemaVersion, `data` typed by its definition. */
export type EventOf<D extends EventDefinition> = Omit<StoredEnvelope, 'type' | 'data'> & {
  type: D['type'];
  data: z.infer<D['data']>;
};

export type DomainEvent = KnownDefinition extends infer D
  ? D extends EventDefinition
    ? EventOf<D>
    : never
  : never;

export type EventType = KnownDefinition['type'];

export const knownDefinitions: readonly EventDefinition[] = [
  ...hookEvents,
  ...engramEvents,
  ...memoryEvents,
  ...distillEvents,
  ...transcriptEvents,
  ...recallEvents,
  ...skillEvents,
  ...backfillEvents,
  ...logEvents,
  ...teamEvents,
];

/**
 * Reads events: checks `data` against its type's schema and lifts old schemaVersions through the
 * upcasters, so every reader sees every event at its current version.
 */
export class EventCatalog {
  readonly #definitions = new Map<string, EventDefinition>();
  readonly #upcasters = new Map<string, Upcaster>();

  constructor(definitions: readonly EventDefinition[], upcasters: readonly Upcaster[]) {
    for (const definition of definitions) {
      if (this.#definitions.has(definition.type)) {
        throw new EngramError('EVENT_INVALID', `event type ${definition.type} is declared twice`);
      }
      this.#definitions.set(definition.type, definition);
    }
    for (const upcaster of upcasters) {
      this.#upcasters.set(`${upcaster.type}@${upcaster.fromSchemaVersion}`, upcaster);
    }
  }

  has(type: string): boolean {
    return this.#definitions.has(type);
  }

  definition(type: string): EventDefinition | undefined {
    return this.#definitions.get(type);
  }

  get types(): string[] {
    return [...this.#definitions.keys()];
  }

  /** The event at its current schemaVersion, or an EngramError saying why it cannot be read. */
  read<E extends Envelope>(event: E): Omit<E, 'data' | 'schemaVersion'> & { schemaVersion: number; data: unknown } {
    const definition = this.#definitions.get(event.type);
    if (!definition) {
      throw new EngramError('EVENT_TYPE_UNKNOWN', `unknown event type ${JSON.stringify(event.type)}`);
    }
    let version = event.schemaVersion;
    let data: unknown = event.data;
    if (version > definition.schemaVersion) {
      throw new EngramError(
        'EVENT_INVALID',
        `${event.type} schemaVersion ${version} is newer than this engram reads (${definition.schemaVersion})`,
      );
    }
    while (version < definition.schemaVersion) {
      const upcaster = this.#upcasters.get(`${event.type}@${version}`);
      if (!upcaster) {
        throw new EngramError('UPCASTER_MISSING', `no upcaster lifts ${event.type} from schemaVersion ${version}`);
      }
      const old = upcaster.from.safeParse(data);
      if (!old.success) {
        throw new EngramError('EVENT_INVALID', `${event.type} v${version} data is invalid`, { cause: old.error });
      }
      data = upcaster.upcast(old.data);
      version++;
    }
    const parsed = definition.data.safeParse(data);
    if (!parsed.success) {
      throw new EngramError('EVENT_INVALID', `${event.type} v${version} data is invalid: ${describeIssues(parsed.error)}`, {
        cause: parsed.error,
      });
    }
    return { ...event, schemaVersion: version, data: parsed.data };
  }

  /** A stored event as a projector sees it. */
  readStored(event: StoredEnvelope): DomainEvent {
    return this.read(event) as unknown as DomainEvent;
  }
}
