/**
 * How an entity's name is compared: the projection that indexes entities and the ranker that
 * finds them in a prompt must agree on it, so it is said once, here. Pure, no dependencies, so a
 * hook may import it.
 */

/** The longest name, in words, looked for in a prompt (entity names are short noun phrases). */
export const MAX_NAME_WORDS = 5;

/**
 * A name as it is compared: NFKC, lower case, quotes and trailing punctuation dropped, runs of
 * space made one, and every word plural-folded. `''` when nothing is left.
 */
export function entityKey(name: string): string {
  return words(name).map(foldPlural).join(' ');
}

/** The words of a name or a prompt, lower-cased, with the punctuation around each dropped (a path keeps its dots and slashes). */
export function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}_./~@-]+|[^\p{L}\p{N}_/-]+$/gu, '').replace(/^\.\//, ''))
    .filter((word) => word.length > 0);
}

/**
 * The singular a plural is compared as: `services` → `service`, `libraries` → `library`,
 * `indexes` → `index`. Both sides are folded alike, so a name that only looks plural
 * (`postgres`) still meets itself. Paths and words with digits stay as they are.
 */
export function foldPlural(word: string): string {
  if (word.length <= 3 || /[\d/.]/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Whether a name is a file path (it has a slash), whose last part is then an alias of it. */
export function isPath(name: string): boolean {
  return /[\\/]/.test(name.trim());
}

/**
 * The other keys an entity is found by: a file's or a path's base name (`src/db/pool.ts` is found
 * as `pool.ts`). The entity's own key is not among them.
 */
export function aliasKeys(name: string, type: string): string[] {
  const key = entityKey(name);
  const found = new Set<string>();
  if (type === 'file' || isPath(name)) {
    const base = key.split(/[\\/]/).filter(Boolean).pop();
    if (base && base !== key) found.add(base);
  }
  return [...found];
}
