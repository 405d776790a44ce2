/**
 * Every error engram raises on purpose carries a stable `code` (callers, tests and `engram doctor`
 * match on it, never on the message) and, when it wraps another failure, that failure as `cause`.
 */
export type ErrorCode =
  | 'HOOK_INPUT_INVALID'
  | 'SPOOL_FILE_INVALID'
  | 'EVENT_INVALID'
  | 'EVENT_TYPE_UNKNOWN'
  | 'UPCASTER_MISSING'
  | 'LOG_LOCKED'
  | 'LOG_CORRUPT'
  | 'LOG_NOT_OPEN'
  | 'LOG_MISSING'
  | 'PROJECTOR_FAILED'
  | 'STATE_CORRUPT'
  | 'WORKER_UNREACHABLE'
  | 'WORKER_PROTOCOL'
  | 'WORKER_NOT_YOURS'
  | 'SETTINGS_INVALID'
  | 'CONFIG_INVALID'
  | 'DOUBLE_RECORDING'
  | 'MIGRATION_FAILED'
  | 'MEMORY_FILE_INVALID'
  | 'MEMORY_FILE_UNWRITABLE'
  | 'MEMORY_DIR_UNREADABLE'
  | 'RECALL_INDEX_INVALID'
  | 'EMBEDDER_UNAVAILABLE'
  | 'EMBEDDING_INVALID'
  | 'VECTORS_UNAVAILABLE'
  | 'GRAPH_INDEX_INVALID'
  | 'VIEWER_RUNNING'
  | 'SYNC_FAILED'
  | 'USAGE';

export class EngramError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngramError';
    this.code = code;
  }
}

export function isEngramError(err: unknown, code?: ErrorCode): err is EngramError {
  return err instanceof EngramError && (code === undefined || err.code === code);
}

/** One line for logs and reports: the code, the message, and the causes' messages. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof EngramError) parts.push(`${current.code}: ${current.message}`);
    else if (current instanceof Error) parts.push(current.message);
    else parts.push(String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(' ← ');
}

/**
 * An error as the person at the terminal reads it: what failed and what to do, without the
 * code (for scripts and tests) and without a schema library's issue list or a stack. The message
 * of an EngramError is complete; a system cause it does not already quote (ENOENT…) is added.
 */
export function describeForUser(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause;
  const quotable = cause instanceof Error && !Array.isArray((cause as { issues?: unknown }).issues) && !(cause instanceof EngramError) ? cause.message : undefined;
  if (err instanceof EngramError && cause instanceof EngramError && !err.message.includes(cause.message)) return `${err.message}: ${describeForUser(cause)}`;
  return quotable && !err.message.includes(quotable) ? `${err.message} (${quotable})` : err.message;
}
