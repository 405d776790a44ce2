import { createHash } from 'node:crypto';

/**
 * The hash engram keeps of a file's content: what a sink records of what it wrote, and what the
 * memory-directory reader reports, so the two compare directly. 22 base64url characters of
 * SHA-256 (132 bits): collisions are not a concern at a user's scale.
 */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('base64url').slice(0, 22);
}
