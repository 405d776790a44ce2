import type { DomainEvent, EventCatalog } from '../events/catalog.js';
import type { EventFacts } from '../projections/event-facts.js';
import type { Projection, RowReader } from '../projections/projector.js';
import type { RowChange } from '../projections/row-change.js';
import { ABSENT, type RowCache } from './row-cache.js';
import type { LaneStore } from './state-store.js';
import type { WindowSlot } from './window-reader.js';

/**
 * Events looked over at once for the rows they will ask for (see loadAhead). Each event is
 * folded on trial at most LOOK_AHEAD_PASSES times, each time through, the rows not in memory
 * answered as absent and noted.
 */
export const LOOK_AHEAD = 500;
/** Passes of that look-ahead: each learns the rows an event asks for given the rows the one before loaded. */
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
  readonly handlesType: readonly boolean[];
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
   * events are folded on trial over a view that notes each row not in memory and answers it as
   * absent, so one pass learns every row an event asks for on that path (a memory proposal asks
   * for a hundred: its tokens' index rows, its directory's, its rank's), not only the first; the
   * next pass, with those loaded, learns the rows they lead to (a token's chunk, named by its
   * head). The trials are dropped. A trial reads the state before the events ahead of it, and
   * a row answered absent may send it down another path, so it may name a row the real fold
   * never asks for (loading it costs a little); the real fold still loads any row the trials missed.
   */
  async loadAhead(slots: ReadonlyArray<WindowSlot | undefined>, first: string): Promise<void> {
    const lane = this.#lane;
    const wanted = new Set([first]);
    let trying = slots.filter((slot): slot is WindowSlot => slot !== undefined && lane.handlesType[slot.typeId] === true);
    for (let pass = 0; pass < LOOK_AHEAD_PASSES && wanted.size > 0; pass++) {
      const missed = trying.filter((slot) => this.#probe(slot.event(this.#catalog), wanted));
      await this.#load(wanted);
      wanted.clear();
      trying = missed;
    }
  }

  /**
   * fold, loading the committed rows it asks for that are not in memory, then asking again: each
   * time every row it asks for on its way (#probe) in one read, rather than one read a row.
   */
  async foldLoading(event: DomainEvent, missing: RowNotLoaded): Promise<readonly RowChange<unknown>[]> {
    for (let miss: RowNotLoaded | readonly RowChange<unknown>[] = missing; ; ) {
      if (!(miss instanceof RowNotLoaded)) return miss;
      const wanted = new Set([miss.key]);
      this.#probe(event, wanted);
      await this.#load(wanted);
      miss = this.fold(event);
    }
  }

  /**
   * Folds `event` on trial, each row not in memory answered as absent and added to `wanted`;
   * the trial is dropped. Whether it asked for any such row.
   */
  #probe(event: DomainEvent, wanted: Set<string>): boolean {
    const { view } = this;
    let missed = false;
    const probe: RowReader<unknown> = {
      ...(view.facts ? { facts: view.facts } : {}),
      get(key) {
        try {
          return view.get(key);
        } catch (err) {
          if (!(err instanceof RowNotLoaded)) throw err;
          wanted.add(key);
          missed = true;
          return undefined;
        }
      },
    };
    try {
      this.#lane.projection.projector.evolve(probe, event);
    } catch {
      // The real fold meets it and reports it.
    }
    return missed;
  }

  /** The committed rows of `keys`, in one read, kept for the round and in the cache. */
  async #load(keys: ReadonlySet<string>): Promise<void> {
    const lane = this.#lane;
    const asked = [...keys];
    const rows = await lane.store!.rows(asked);
    asked.forEach((key, i) => {
      this.loaded.set(key, rows[i] ?? ABSENT);
      lane.cache.set(key, rows[i]);
    });
  }
}
