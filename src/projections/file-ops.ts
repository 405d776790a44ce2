/** What a sink does to files for one row: write a file whole, or merge entries into MEMORY.md. */
export type FileOp =
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | { readonly kind: 'index'; readonly dir: string; readonly entries: readonly IndexEntry[] };

export interface IndexEntry {
  file: string;
  description: string;
}
