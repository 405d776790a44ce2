import type { DomainEvent, EventCatalog } from '../events/catalog.js';
import type { StoredEnvelope } from '../events/envelope.js';
import type { EventLog } from '../log/event-log.js';

/** One event of a window: as stored, and as projectors read it (checked and upcast once). */
export class WindowSlot {
  readonly raw: StoredEnvelope;
  /**
   * The type's place in the catalog (its length for a type it does not know): a lane asks
   * whether it handles an event by this number, not by hashing and comparing the type's string
   * (decoded afresh for every event) once per lane.
   */
  readonly typeId: number;
  #read: DomainEvent | Error | undefined;

  constructor(raw: StoredEnvelope, typeId: number) {
    this.raw = raw;
    this.typeId = typeId;
  }

  /** The event at its current schemaVersion; throws why it cannot be read, every time it is asked. */
  event(catalog: EventCatalog): DomainEvent {
    if (this.#read === undefined) {
      try {
        this.#read = catalog.readStored(this.raw);
      } catch (err) {
        this.#read = err instanceof Error ? err : new Error(String(err));
      }
    }
    if (this.#read instanceof Error) throw this.#read;
    return this.#read;
  }
}

interface Window {
  readonly start: number;
  /** slots[seq - start]; filled from loadedFrom to loadedTo. */
  readonly slots: WindowSlot[];
  loadedFrom: number;
  loadedTo: number;
  loading: Promise<void>;
}

export interface WindowReaderOptions {
  /** Windows kept decoded, so that lanes a little apart share one read and one decode. Default 8. */
  keep?: number;
}

/**
 * Reads the log for every projection lane at once, each at its own pace. The log is cut into
 * windows aligned on multiples of the window size; the lanes that ask for the same window share
 * its read and its decoding, and a lane far behind the others reads on its own, so a slow
 * projection never holds back a fast one and a rebuild of many decodes each event about once.
 */
export class WindowReader {
  readonly #log: EventLog;
  readonly #catalog: EventCatalog;
  readonly #keep: number;
  readonly #windows = new Map<string, Window>();
  readonly #typeIds: ReadonlyMap<string, number>;

  constructor(log: EventLog, catalog: EventCatalog, options: WindowReaderOptions = {}) {
    this.#log = log;
    this.#catalog = catalog;
    this.#keep = options.keep ?? 8;
    this.#typeIds = new Map(catalog.types.map((type, i) => [type, i]));
  }

  /**
   * For each typeId, whether one of `types` is it: what a lane looks up per event instead of
   * its set of type names.
   */
  typeMask(types: ReadonlySet<string>): readonly boolean[] {
    return [...this.#catalog.types.map((type) => types.has(type)), false];
  }

  get catalog(): EventCatalog {
    return this.#catalog;
  }

  /**
   * The events from `from` up to `to`, stopping at the end of the window of `size` holding
   * `from`. When `to` lies beyond that window, the next one is read ahead meanwhile, so a lane
   * folding one window never waits for the disk to give it the next.
   */
  async read(from: number, to: number, size: number): Promise<WindowSlot[]> {
    const start = Math.floor((from - 1) / size) * size + 1;
    const last = Math.min(start + size - 1, to);
    if (last < from) return [];
    const loading = this.#load(start, from, last);
    if (to > last) void this.#load(last + 1, last + 1, Math.min(last + size, to)).catch(() => undefined);
    // The window itself, not a look-up after the wait: reading ahead may have pushed it out of the kept ones meanwhile.
    const window = await loading;
    return window.slots.slice(from - start, last - start + 1);
  }

  /** Makes sure the window starting at `start` holds `from`..`last`. */
  async #load(start: number, from: number, last: number): Promise<Window> {
    const id = `${start}`;
    let window = this.#windows.get(id);
    if (window) {
      this.#windows.delete(id);
      this.#windows.set(id, window);
    } else {
      window = { start, slots: [], loadedFrom: from, loadedTo: from - 1, loading: Promise.resolve() };
      this.#windows.set(id, window);
      if (this.#windows.size > this.#keep) this.#windows.delete(this.#windows.keys().next().value!);
    }
    const w = window;
    // Loads of one window run one after another, so two lanes never read the same events twice.
    // A failed load is the caller's error, not the next caller's.
    w.loading = w.loading.catch(() => undefined).then(async () => {
      if (from < w.loadedFrom) {
        await this.#readInto(w, from, w.loadedFrom - 1);
        w.loadedFrom = from;
      }
      if (last > w.loadedTo) {
        await this.#readInto(w, Math.max(w.loadedTo + 1, w.loadedFrom), last);
        w.loadedTo = last;
      }
    });
    await w.loading;
    return w;
  }

  async #readInto(window: Window, from: number, to: number): Promise<void> {
    for await (const batch of this.#log.read({ from, to, batchSize: 2000 })) {
      const unknown = this.#typeIds.size;
      for (const raw of batch) window.slots[raw.seq - window.start] = new WindowSlot(raw, this.#typeIds.get(raw.type) ?? unknown);
    }
  }
}
