import type { DomainEvent, EventType } from '../events/catalog.js';

/**
 * One change a projector asks its sink to make. Changes are coalesced by `key` within a batch:
 * the last one wins, so a sink writes each output once per batch however many events touched
 * it. That is only sound because every change carries the whole output, never a delta.
 */
export interface Change {
  /** What the change replaces: the same key always names the same output. */
  readonly key: string;
}

export interface Evolution<S, C extends Change> {
  state: S;
  changes: readonly C[];
}

/**
 * A projection's logic, declared once. `evolve` is pure: no clock, no randomness, no I/O
 * (DESIGN.md invariant 4). For speed it may update the state it is handed and return it: the
 * runner owns that state and never uses it again after the call. Anything `evolve` returns in
 * a change must not be mutated afterwards.
 */
export interface Projector<S, C extends Change> {
  readonly name: string;
  /** Bump it when the output for the same events changes: the worker then rebuilds this one alone. */
  readonly projectorVersion: number;
  readonly handles: readonly EventType[];
  initialState(): S;
  evolve(state: S, event: DomainEvent): Evolution<S, C>;
}

/** Applies changes to the world. Idempotent: applying the same changes twice leaves what once did. */
export interface Sink<C extends Change> {
  apply(changes: readonly C[]): Promise<void>;
  /** Drops what this sink owns, before a rebuild. Never deletes a memory file (invariant 6). */
  reset(): Promise<void>;
}

export interface Projection<S = unknown, C extends Change = Change> {
  projector: Projector<S, C>;
  sink: Sink<C>;
}

export function defineProjector<S, C extends Change>(projector: Projector<S, C>): Projector<S, C> {
  return projector;
}

/** Folds events through a projector; what a rebuild computes, without any sink. */
export function fold<S, C extends Change>(
  projector: Projector<S, C>,
  events: Iterable<DomainEvent>,
  state: S = projector.initialState(),
): { state: S; changes: Map<string, C> } {
  const handled = new Set<string>(projector.handles);
  const changes = new Map<string, C>();
  for (const event of events) {
    if (!handled.has(event.type)) continue;
    const next = projector.evolve(state, event);
    state = next.state;
    for (const change of next.changes) changes.set(change.key, change);
  }
  return { state, changes };
}
