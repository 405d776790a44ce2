import type { DomainEvent, EventCatalog } from '../events/catalog.js';
import type { EventFacts } from '../projections/event-facts.js';
import type { Projection, RowReader } from '../projections/projector.js';
import type { RowChange } from '../projections/row-change.js';
import { ABSENT, type RowCache } from './row-cache.js';
import type { LaneStore } from './state-store.js';
import type { WindowSlot } from './window-reader.js';

/**
 * Events looked over at once for the rows they will ask for (see #loadAhead). Each event is
 * folded on trial at most LOOK_AHEAD_PASSES times, each time only up to a row not in memory.
 */
export const LOOK_AHEAD = 500;
/** Passes of that look-ahead: each learns one more row an event asks for. */
const LOOK_AHEAD_PASSES = 3;

/** Thrown by a row view for a row that is in the store but not in memory; the runner loads it. */
export class RowNotLoaded {
  constructor(readonly key: string) {}
}

/** What a round needs of its lane. */
export interface FoldingLane {
  readonly projection: Projection<unknown>;
  readonly store: LaneStore | null;
  readonly cache: RowCache;
  readonly handles: ReadonlySet<string>;
  readonly written: { rows: Set<string>; outputs: Set<string> } | undefined;
}

/**
 * One round's rows: the changes it folded over the committed rows, and the committed rows it
 * loaded, kept for its length whatever the cache evicts. Folding stays synchronous unless a row
 * must be loaded first: an await per event would cost a rebuild more than the folding itself.
 */
export class RoundRows {
  /** The round's changes, over the committed rows; dropped whole if the round fails. */
  readonly changed = new Map<string, unknown>();
  readonly loaded = new Map<string, unknown>();
  readonly view: RowReader<unknown>;
  readonly #lane: FoldingLane;
  readonly #catalog: EventCatalog;

  constructor(lane: FoldingLane, catalog: EventCatalog, facts: EventFacts) {
    this.#lane = lane;
    this.#catalog = catalog;
    const { changed, loaded } = this;
    this.view = {
      facts,
      get(key) {
        // Rows are never undefined here: a deleted row is null, a row the store lacks is ABSENT.
        const row = changed.get(key) ?? loaded.get(key);
        if (row !== undefined) return row === null || row === ABSENT ? undefined : row;
        // Asked first: in a rebuild most keys asked for are new, and everything committed is in it.
        if (lane.written && !lane.written.rows.has(key)) return undefined;
        const cached = lane.cache.get(key);
        if (cached === ABSENT) return undefined;
        if (cached !== undefined) return cached;
        throw new RowNotLoaded(key);
      },
    };
  }

  /** Folds one event over the round's rows; RowNotLoaded when it asks for a committed row not in memory. */
  fold(event: DomainEvent): readonly RowChange<unknown>[] | RowNotLoaded {
    try {
      return this.#lane.projection.projector.evolve(this.view, event);
    } catch (err) {
      if (err instanceof RowNotLoaded) return err;
      throw err;
    }
  }

  /**
   * One read for the rows the next events will ask for, instead of one read each (an import of
   * thousands of new memories asks each lane for thousands of rows that do not exist yet). The
   * events are folded on trial, each only up to the first row it asks for that is not in memory
   * (so a trial costs little where it matters); the key is noted and the trial dropped. A trial
   * reads the state before the events ahead of it, so it may name a row the real fold never asks
   * for (loading it costs a little), and the real fold still loads any row the trial missed.
   */
  async loadAhead(slots: ReadonlyArray<WindowSlot | undefined>, first: string): Promise<void> {
    const lane = this.#lane;
    let wanted = new Set([first]);
    let trying = slots.filter((slot): slot is WindowSlot => slot !== undefined && lane.handles.has(slot.raw.type));
    // An event asks for its rows one after another: each pass learns the next one it lacks.
    for (let pass = 0; pass < LOOK_AHEAD_PASSES && wanted.size > 0; pass++) {
      const missed: WindowSlot[] = [];
      for (const slot of trying) {
        try {
          lane.projection.projector.evolve(this.view, slot.event(this.#catalog));
        } catch (err) {
          // Any other error: the real fold meets it and reports it.
          if (err instanceof RowNotLoaded) {
            wanted.add(err.key);
            missed.push(slot);
          }
        }
      }
      const keys = [...wanted];
      const rows = await lane.store!.rows(keys);
      keys.forEach((key, i) => {
        this.loaded.set(key, rows[i] ?? ABSENT);
        lane.cache.set(key, rows[i]);
      });
      wanted = new Set();
      trying = missed;
    }
  }

  /** fold, loading each committed row it asks for that is not in memory, then asking again. */
  async foldLoading(event: DomainEvent, missing: RowNotLoaded): Promise<readonly RowChange<unknown>[]> {
    const lane = this.#lane;
    for (let miss: RowNotLoaded | readonly RowChange<unknown>[] = missing; ; ) {
      if (!(miss instanceof RowNotLoaded)) return miss;
      const [row] = await lane.store!.rows([miss.key]);
      this.loaded.set(miss.key, row ?? ABSENT);
      lane.cache.set(miss.key, row);
      miss = this.fold(event);
    }
  }
}
