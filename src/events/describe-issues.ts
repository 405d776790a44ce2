import type * as z from 'zod/mini';

/** A zod failure in one line, for a rejection reason or a log: where, and what was wrong. */
export function describeIssues(error: z.core.$ZodError | undefined): string {
  if (!error) return 'invalid';
  return error.issues
    .slice(0, 4)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}
