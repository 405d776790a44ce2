/** What every page needs to link to another: the token, and the point of the log it shows. */
export interface ViewContext {
  readonly token: string;
  /** The seq the page shows the log as of; undefined for the live state. */
  readonly asOf: number | undefined;
  /** The seq the page's data goes up to (asOf, or the live head). */
  readonly head: number;
  /** Scores (strength, staleness) are taken at this time: the clock, or an as-of event's time. */
  readonly now: Date;
  /** A CSP nonce for the page's one script. */
  readonly nonce: string;
}

/** A link inside the viewer, carrying the token and, unless `live`, the as-of point. */
export function href(ctx: ViewContext, path: string, params: Record<string, string | number | undefined> = {}, live = false): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, String(value));
  if (!live && ctx.asOf !== undefined && !('asof' in params)) query.set('asof', String(ctx.asOf));
  query.set('t', ctx.token);
  return `${path}?${query.toString()}`;
}
