import { Packr } from 'msgpackr';
import { EngramError } from '../errors.js';
import type { Envelope, StoredEnvelope } from '../events/envelope.js';

/**
 * An event's bytes in the log: a msgpack array in envelope order. An array, not a map, because
 * the field names would otherwise be stored 100,000 times over; plain msgpack (no records
 * extension) so that any msgpack reader can decode a log.
 */
export class EventCodec {
  readonly #packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true });

  encode(event: Envelope): Buffer {
    const fields = [event.id, event.type, event.schemaVersion, event.ts, event.session, event.project, event.data];
    // The producer goes last and only when known: events written before it was stamped stay 7 fields.
    if (event.producer !== undefined) fields.push(event.producer);
    return this.#packr.pack(fields);
  }

  decode(seq: number, bytes: Uint8Array): StoredEnvelope {
    let fields: unknown;
    try {
      fields = this.#packr.unpack(bytes);
    } catch (cause) {
      throw new EngramError('LOG_CORRUPT', `event ${seq} does not decode`, { cause });
    }
    if (!Array.isArray(fields) || (fields.length !== 7 && fields.length !== 8)) {
      throw new EngramError('LOG_CORRUPT', `event ${seq} is not an event record`);
    }
    const [id, type, schemaVersion, ts, session, project, data, producer] = fields as [
      string, string, number, string, string, string, unknown, string | undefined,
    ];
    return producer === undefined
      ? { seq, id, type, schemaVersion, ts, session, project, data }
      : { seq, id, type, schemaVersion, ts, session, project, data, producer };
  }
}

const SEQ_WIDTH = 16;

/** Fixed width, so that the byte order of keys is the numeric order of seqs. */
export function seqKey(seq: number): string {
  return String(seq).padStart(SEQ_WIDTH, '0');
}
