/** What sentencePieces reads of @energetic-ai/embeddings' tokenizer: its trie of pieces and its vocabulary. */
export interface PieceTokenizer {
  trie: { root: PieceNode };
  vocabulary: ReadonlyArray<readonly [string, number]>;
}

interface PieceNode {
  children: Record<string, PieceNode | undefined>;
  end: boolean;
  /** The piece's symbols, score and vocabulary index. */
  word: [string[], number, number];
}

/**
 * USE Lite's SentencePiece tokens for `input`, the same as the package's `tokenizer.encode`
 * (@energetic-ai/embeddings 0.2.0; a test compares them on every text it has) without its cost
 * on long texts: the package's encode copies the rest of the text at every character to search
 * the trie from there, quadratic in the length (≈ 60 ms of CPU for a prompt of 2,000–4,000
 * characters here, on a loaded machine, before the model even starts). Here each search walks the
 * trie from its position. The rest is the package's, quirks included: the lattice by end
 * position, starts ascending; an unset best is 0; the way back steps by the piece's length in
 * UTF-16 units; runs of unknowns merged.
 *
 * Self-contained (no import, nothing from outside): use-lite-embedder.ts gives its source to the
 * model's thread.
 */
export function sentencePieces(tokenizer: PieceTokenizer, input: string): number[] {
  const normalized = input.normalize('NFKC');
  const text = normalized.length > 0 ? '\u2581' + normalized.replace(/ /g, '\u2581') : normalized;
  const symbols = Array.from(text);
  const n = symbols.length;
  // Per end position: start, score, index, … for each piece ending there, starts ascending.
  const ends: number[][] = [];
  for (let i = 0; i <= n; i++) ends.push([]);
  for (let i = 0; i < n; i++) {
    let node = tokenizer.trie.root.children[symbols[i]!];
    let found = false;
    for (let k = i; k < n && node; k++) {
      if (node.end) {
        ends[k + 1]!.push(i, node.word[1], node.word[2]);
        found = true;
      }
      node = node.children[symbols[k + 1]!];
    }
    if (!found) ends[i + 1]!.push(i, 0, 0);
  }
  const words: number[] = new Array<number>(n + 1).fill(0);
  const best: number[] = new Array<number>(n + 1).fill(0);
  for (let end = 0; end <= n; end++) {
    const pieces = ends[end]!;
    for (let j = 0; j < pieces.length; j += 3) {
      const score = pieces[j + 1]! + best[pieces[j]!]!;
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score;
        words[end] = pieces[j + 2]!;
      }
    }
  }
  const results: number[] = [];
  for (let at = words.length - 1; at > 0; at -= tokenizer.vocabulary[words[at]!]![0].length) results.push(words[at]!);
  const merged: number[] = [];
  let previousUnknown = false;
  for (const id of results) {
    if (!(previousUnknown && id === 0)) merged.push(id);
    previousUnknown = id === 0;
  }
  return merged.reverse();
}
