import type * as z from 'zod/mini';

/**
 * A zod failure in one line, for a rejection reason or a log: where, and what was wrong; never
 * what the input said (DESIGN.md invariant 3). zod's own messages name types, sizes and the
 * schema's values, not the input's, except the keys it did not expect; and a path can hold
 * the input's own keys (a record's): those are counted or hidden rather than quoted.
 */
export function describeIssues(error: z.core.$ZodError | undefined): string {
  if (!error) return 'invalid';
  return error.issues
    .slice(0, 4)
    .map((issue) => `${where(issue.path)}: ${issue.code === 'unrecognized_keys' ? unrecognized(issue.keys.length) : issue.message}`)
    .join('; ');
}

// A key a schema declares reads like a name (`tool_input`, `schemaVersion`); one that mixes
// letters and digits at length, or is long, or holds anything else, may be the input's own.
const NAME = /^[A-Za-z_][A-Za-z_-]{0,39}$|^[A-Za-z_][\w-]{0,11}$/;

function where(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((key) => (typeof key === 'number' ? String(key) : typeof key === 'string' && NAME.test(key) ? key : '[key]')).join('.');
}

function unrecognized(count: number): string {
  return count === 1 ? 'a key the schema does not know' : `${count} keys the schema does not know`;
}
