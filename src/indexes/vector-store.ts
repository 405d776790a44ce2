import { mkdirSync } from 'node:fs';
import type { Connection, Table } from '@lancedb/lancedb';
import { EngramError } from '../errors.js';
import { VectorMirror } from './vector-mirror.js';
import type { VectorHit } from './vector-hit.js';

/**
 * Tables of more rows than this are searched by LanceDB itself, not from memory: the mirror holds
 * 2 KB a row (USE Lite's 512 floats), 100 MB at this size.
 */
export const MIRROR_MAX_ROWS = 50_000;
/**
 * Up to this many rows the mirror holds them as bytes (vector-mirror.ts `packed`), 0.5 KB a row of
 * 512, 128 MB at this size: a LanceDB query without an index over 100,000 rows took about a
 * second here, the packed mirror tens of ms.
 */
export const PACKED_MIRROR_MAX_ROWS = 250_000;

/** One memory's row in a vectors table. */
export interface VectorRow {
  id: string;
  /** Its project; '' for a global memory. */
  project: string;
  file: string;
  name: string;
  /** Hash of the text that was embedded. */
  textHash: string;
  vector: Float32Array;
}

/** A table name for a model: its id with anything but letters and digits made `_`. */
export function vectorTableName(model: string): string {
  return `memories_${model.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/**
 * The vectors of one embedding model: a LanceDB table under `dir`, rows keyed by memory id.
 * Opens LanceDB on first use, creates the table on the first write and reads an absent table
 * as empty, so a home that never embedded has nothing here.
 */
export class VectorStore {
  readonly dir: string;
  readonly model: string;
  readonly dimensions: number;
  readonly table: string;
  #connection: Promise<Connection> | undefined;
  #opened: Table | undefined;
  /** The rows nearest() searches, read on its first call (vector-mirror.ts says why). */
  #mirror: VectorMirror | undefined;
  /** The table version found too large to mirror. */
  #tooLargeAt: number | undefined;
  /** The mirror being read, and of which version: searches that come meanwhile wait for it instead of each reading the table again. */
  #reading: { version: number; mirror: Promise<VectorMirror> } | undefined;
  /** Moved by drop(): a mirror read of the table before it is not kept (a new table's versions start again). */
  #generation = 0;
  #mirrorReads = 0;

  readonly #mirrorMaxRows: number;
  readonly #packedMaxRows: number;

  constructor(options: {
    dir: string;
    model: string;
    dimensions: number;
    /** Tables of more rows are mirrored packed, or searched by LanceDB. Default MIRROR_MAX_ROWS (50,000); 0: never as floats. */
    mirrorMaxRows?: number;
    /** Tables of more rows than this (and than mirrorMaxRows) are searched by LanceDB, not from memory. Default PACKED_MIRROR_MAX_ROWS (250,000); 0: never packed. */
    packedMaxRows?: number;
  }) {
    this.#mirrorMaxRows = options.mirrorMaxRows ?? MIRROR_MAX_ROWS;
    this.#packedMaxRows = options.packedMaxRows ?? PACKED_MIRROR_MAX_ROWS;
    this.dir = options.dir;
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.table = vectorTableName(options.model);
  }

  /** Inserts each row, or replaces the row of the same id. */
  async upsert(rows: readonly VectorRow[]): Promise<void> {
    if (rows.length === 0) return;
    for (const row of rows) {
      if (row.vector.length !== this.dimensions) throw new EngramError('EMBEDDING_INVALID', `a vector of ${row.vector.length} values for a table of ${this.dimensions}`);
    }
    const table = await this.#table(true);
    await this.#keepMirror(table!, async () => {
      await table!.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows.map((row) => ({ ...row })));
    }, (mirror) => mirror.upsert(rows));
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const table = await this.#table(false);
    if (table) await this.#keepMirror(table, () => table.delete(`id IN (${ids.map(sqlString).join(', ')})`), (mirror) => mirror.remove(ids));
  }

  /** Drops the table (a rebuild fills it again, from the embedding cache). */
  async drop(): Promise<void> {
    const db = await this.#connect();
    this.#opened = undefined;
    this.#mirror = undefined;
    this.#reading = undefined;
    this.#generation++;
    if ((await db.tableNames()).includes(this.table)) await db.dropTable(this.table);
  }

  /** Compacts the table's fragments and prunes old table versions. */
  async optimize(): Promise<void> {
    const table = await this.#table(false);
    // Compaction changes the version, not the rows.
    if (table) await this.#keepMirror(table, async () => void (await table.optimize()), () => undefined, true);
  }

  /** How many times the table was read whole into the mirror so far (once per version another handle wrote, however many searches asked meanwhile). */
  get mirrorReads(): number {
    return this.#mirrorReads;
  }

  async count(): Promise<number> {
    return this.#read(async (table) => (table ? table.countRows() : 0));
  }

  /** Every row, sorted by id (for tests and checks; a user's table is small). */
  async rows(): Promise<VectorRow[]> {
    return this.#read(async (table) => {
      if (!table) return [];
      const rows = (await table.query().toArray()) as Array<Record<string, unknown>>;
      return rows.map(fromLance).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    });
  }

  /**
   * Makes ready what nearest() reads (the table's mirror, read when it is not held or the table
   * moved), so that a search started beside the query's embedding finds it done. Never rejects:
   * nearest() reports what fails.
   */
  async prepare(): Promise<void> {
    await this.#read(async (table) => (table ? this.#mirrored(table) : undefined)).catch(() => undefined);
  }

  /**
   * A search of the table as it is now, for a vector not known yet: what nearest() checks (the
   * table's version, its mirror read if it moved) is checked here, beside the query's embedding,
   * and not again after it. LanceDB's version() is a call into its own threads: ≈ 0.1 ms at the
   * median but up to ≈ 6 ms on a loaded machine, on the path between the embedding and the
   * answer. The search sees every write finished before this call (and this handle's own after
   * it), as a nearest() called now would. Never rejects: the search reports what fails.
   */
  async searcher(): Promise<(vector: Float32Array, options: { project: string; limit: number }) => Promise<VectorHit[]>> {
    const mirror = await this.#read(async (table) => (table ? this.#mirrored(table) : undefined)).catch(() => undefined);
    if (mirror) return async (vector, options) => (options.limit <= 0 ? [] : mirror.nearest(vector, options));
    return (vector, options) => this.nearest(vector, options);
  }

  /**
   * The `limit` rows nearest `vector` by cosine among the project's memories and the global ones
   * (brute force: a user's few thousand memories need no index), best first.
   */
  async nearest(vector: Float32Array, options: { project: string; limit: number }): Promise<VectorHit[]> {
    if (options.limit <= 0) return [];
    const mirror = await this.#read(async (table) => (table ? this.#mirrored(table) : undefined));
    if (mirror) return mirror.nearest(vector, options);
    const found = await this.#read(async (table) => {
      if (!table) return [];
      const projects = [...new Set([options.project, ''])].map(sqlString).join(', ');
      return (await table
        .vectorSearch(Array.from(vector))
        .distanceType('cosine')
        .where(`project IN (${projects})`)
        .select(['id', '_distance'])
        .limit(options.limit)
        .toArray()) as Array<{ id: string; _distance: number }>;
    });
    // Ties (the same text twice) are ordered by id, so a ranking is the same every time.
    return found
      .map((hit) => ({ id: hit.id, cosine: 1 - hit._distance }))
      .sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * The mirror of the table as it is now: read whole when there is none or the table's version
   * moved under it (another handle wrote), undefined when the table is too large to hold.
   */
  async #mirrored(table: Table): Promise<VectorMirror | undefined> {
    const version = await table.version();
    if (this.#mirror?.version === version) return this.#mirror;
    if (this.#reading?.version === version) return this.#reading.mirror;
    this.#mirror = undefined;
    if (this.#tooLargeAt === version) return undefined;
    const count = await table.countRows();
    if (count > this.#mirrorMaxRows && count > this.#packedMaxRows) {
      this.#tooLargeAt = version;
      return undefined;
    }
    if (this.#reading?.version === version) return this.#reading.mirror;
    const generation = this.#generation;
    this.#mirrorReads++;
    const reading = { version, mirror: readMirror(table, version, count > this.#mirrorMaxRows) };
    this.#reading = reading;
    try {
      const mirror = await reading.mirror;
      // Kept unless the table was dropped or written meanwhile (#keepMirror found no mirror to keep in step).
      if (this.#reading === reading && this.#generation === generation) this.#mirror = mirror;
      return mirror;
    } finally {
      if (this.#reading === reading) this.#reading = undefined;
    }
  }

  /**
   * Runs a write and keeps the mirror in step: `apply` when the write was the table's one change
   * (or, for `sameRows`, only moved its version); else the mirror is dropped and read again later.
   */
  async #keepMirror(table: Table, write: () => Promise<unknown>, apply: (mirror: VectorMirror) => void, sameRows = false): Promise<void> {
    // A mirror being read may or may not see this write: it is not kept, the next search reads again.
    this.#reading = undefined;
    const mirror = this.#mirror;
    const before = mirror ? await table.version() : undefined;
    try {
      await write();
    } catch (err) {
      this.#mirror = undefined;
      throw err;
    }
    if (!mirror || this.#mirror !== mirror) return;
    const after = await table.version();
    if (before === mirror.version && (sameRows || after === before + 1)) {
      apply(mirror);
      mirror.version = after;
      // Grown past its cap by its own writes: read again packed, or left to LanceDB, as for a table read that large.
      if (mirror.size > (mirror.packed ? this.#packedMaxRows : this.#mirrorMaxRows)) this.#mirror = undefined;
    } else {
      this.#mirror = undefined;
    }
  }

  async close(): Promise<void> {
    this.#opened?.close();
    this.#opened = undefined;
    const db = await this.#connection;
    this.#connection = undefined;
    db?.close();
  }

  #connect(): Promise<Connection> {
    this.#connection ??= (async () => {
      try {
        mkdirSync(this.dir, { recursive: true });
        const { connect } = await import('@lancedb/lancedb');
        // Strong consistency: a search sees what the sink wrote a moment ago, through any handle.
        return await connect(this.dir, { readConsistencyInterval: 0 });
      } catch (err) {
        this.#connection = undefined;
        throw new EngramError('VECTORS_UNAVAILABLE', `LanceDB could not open ${this.dir}`, { cause: err });
      }
    })();
    return this.#connection;
  }

  /**
   * A read through the open table; when the table was dropped and made again under it (a
   * rebuild by another handle), the handle is stale: it is opened again and the read retried.
   */
  async #read<T>(read: (table: Table | undefined) => Promise<T>): Promise<T> {
    try {
      return await read(await this.#table(false));
    } catch (err) {
      if (!this.#opened) throw err;
      this.#opened = undefined;
      return read(await this.#table(false));
    }
  }

  async #table(create: boolean): Promise<Table | undefined> {
    if (this.#opened) return this.#opened;
    const db = await this.#connect();
    if ((await db.tableNames()).includes(this.table)) this.#opened = await db.openTable(this.table);
    else if (create) this.#opened = await db.createEmptyTable(this.table, await vectorSchema(this.dimensions), { mode: 'create', existOk: true });
    return this.#opened;
  }
}

/** The table's rows at `version`, read batch by batch: a large table is never all in memory twice. */
async function readMirror(table: Table, version: number, packed: boolean): Promise<VectorMirror> {
  const mirror = new VectorMirror(version, [], { packed });
  for await (const batch of table.query().select(['id', 'project', 'vector'])) {
    const rows = batch.toArray() as Array<Record<string, unknown>>;
    mirror.upsert(rows.map((row) => ({ id: String(row.id), project: String(row.project), vector: vectorOf(row) })));
  }
  return mirror;
}

async function vectorSchema(dimensions: number) {
  const { Field, FixedSizeList, Float32, Schema, Utf8 } = await import('apache-arrow');
  const text = (name: string) => new Field(name, new Utf8(), false);
  return new Schema([
    text('id'),
    text('project'),
    text('file'),
    text('name'),
    text('textHash'),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

function vectorOf(row: Record<string, unknown>): Float32Array {
  const vector = row.vector as ArrayLike<number> | { toArray(): ArrayLike<number> };
  return Float32Array.from('toArray' in vector ? vector.toArray() : vector);
}

function fromLance(row: Record<string, unknown>): VectorRow {
  return {
    id: String(row.id),
    project: String(row.project),
    file: String(row.file),
    name: String(row.name),
    textHash: String(row.textHash),
    vector: vectorOf(row),
  };
}

/** An SQL string literal (a memory id may hold a quote). */
function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
