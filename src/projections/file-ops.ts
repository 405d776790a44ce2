/** What a sink does to files for one row: write a file whole, or merge entries into MEMORY.md. */
export type FileOp =
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | { readonly kind: 'index'; readonly dir: string; readonly entries: readonly IndexEntry[] };

export interface IndexEntry {
  file: string;
  description: string;
}

/** A name safe as one path segment, the same for the same id on every run. */
export function fileSafe(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120);
  return safe === id ? safe : `${safe}-${checksum(id)}`;
}

function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
