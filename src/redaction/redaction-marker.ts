/** What a redacted secret becomes. No rule ever matches inside one, so redaction is idempotent. */
export const MARKER_SOURCE = String.raw`\[REDACTED:[\w-]+\]`;
export const marker = (kind: string): string => `[REDACTED:${kind}]`;
