/**
 * What is computed from an event once for every lane that folds it: a pure function of the
 * event that costs more than folding it (the correction detector over a prompt, which six lanes
 * fold through the memories projector, each up to three times more on trial). One belongs to
 * whoever folds the lanes (ProjectionRunner) and reaches each projector through its RowReader;
 * a fact lives as long as the event object the lanes share, and never changes a row: `of` gives
 * what `compute(event)` gives.
 */
export class EventFacts {
  readonly #known = new WeakMap<object, Map<unknown, unknown>>();

  /** `compute(event)`, computed the first time this event object is asked about with this function. */
  of<E extends object, T>(event: E, compute: (event: E) => T): T {
    let facts = this.#known.get(event);
    if (facts === undefined) {
      facts = new Map();
      this.#known.set(event, facts);
    } else if (facts.has(compute)) {
      return facts.get(compute) as T;
    }
    const fact = compute(event);
    facts.set(compute, fact);
    return fact;
  }
}
