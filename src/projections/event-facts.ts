/**
 * What is computed from an event once for every lane that folds it: a pure function of the
 * event that costs more than folding it (the correction detector over a prompt, which six lanes
 * fold through the memories projector, each up to three times more on trial). One belongs to
 * whoever folds the lanes (ProjectionRunner) and reaches each projector through its RowReader;
 * a fact lives as long as the event object the lanes share, and never changes a row: `of` gives
 * what `compute(event)` gives.
 */
export class EventFacts {
  // A list, not a Map per event: an event has one fact or none (a rebuild folds a million).
  readonly #known = new WeakMap<object, Fact>();

  /** `compute(event)`, computed the first time this event object is asked about with this function. */
  of<E extends object, T>(event: E, compute: (event: E) => T): T {
    const first = this.#known.get(event);
    for (let fact = first; fact !== undefined; fact = fact.next) if (fact.compute === compute) return fact.value as T;
    const value = compute(event);
    this.#known.set(event, { compute, value, next: first });
    return value;
  }
}

interface Fact {
  readonly compute: unknown;
  readonly value: unknown;
  readonly next: Fact | undefined;
}
