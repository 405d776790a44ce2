import type { DomainEvent, EventCatalog } from '../events/catalog.js';
import type { StoredEnvelope } from '../events/envelope.js';
import type { EventLog } from '../log/event-log.js';

/** One event of a window: as stored, and as projectors read it (checked and upcast once). */
export class WindowSlot {
  readonly raw: StoredEnvelope;
  #read: DomainEvent | Error | undefined;

  constructor(raw: StoredEnvelope) {
    this.raw = raw;
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

  constructor(log: EventLog, catalog: EventCatalog, options: WindowReaderOptions = {}) {
    this.#log = log;
    this.#catalog = catalog;
    this.#keep = options.keep ?? 8;
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
    const window = this.#load(start, from, last);
    if (to > last) void this.#load(last + 1, last + 1, Math.min(last + size, to)).catch(() => undefined);
    await window;
    const id = `${start}`;
    return this.#windows.get(id)!.slots.slice(from - start, last - start + 1);
  }

  /** Makes sure the window starting at `start` holds `from`..`last`. */
  #load(start: number, from: number, last: number): Promise<void> {
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
    return w.loading;
  }

  async #readInto(window: Window, from: number, to: number): Promise<void> {
    for await (const batch of this.#log.read({ from, to, batchSize: 2000 })) {
      for (const raw of batch) window.slots[raw.seq - window.start] = new WindowSlot(raw);
    }
  }
}
