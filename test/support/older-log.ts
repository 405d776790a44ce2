import { Level } from 'level';
import type { Envelope } from '../../src/events/envelope.js';
import { EventCodec, seqKey } from '../../src/log/event-codec.js';

/**
 * Appends events the way an engram from before the one door for redaction did: straight into
 * LevelDB, as they are, secrets included. For the tests of `engram migrate`, whose job is to take
 * out of such a log what today's rules find; today's LevelEventLog redacts every append.
 */
export async function appendAsOlderEngram(location: string, events: readonly Envelope[]): Promise<void> {
  const db = new Level<string, Uint8Array>(location, { keyEncoding: 'utf8', valueEncoding: 'view' });
  await db.open();
  try {
    let head = 0;
    for await (const key of db.keys({ gte: 'e:', lt: 'e;', reverse: true, limit: 1 })) head = Number(key.slice(2));
    const codec = new EventCodec();
    const batch = db.batch();
    for (const event of events) {
      batch.put(`e:${seqKey(++head)}`, codec.encode(event));
      batch.put(`i:${event.id}`, new Uint8Array(0));
    }
    await batch.write();
  } finally {
    await db.close();
  }
}
