/**
 * Where a markdown file's frontmatter is, found by lines alone (no YAML yet): a first line that is
 * `---`, and the next line that is `---`. Trailing spaces and a CR on a delimiter line are
 * tolerated, as editors leave them; nothing else is (`...`, leading spaces, `--- x`).
 */
export type FrontmatterBlock =
  /** The file does not start with `---`. `strayDelimiter`: it does after blank lines, which no reader takes as frontmatter. */
  | { kind: 'none'; strayDelimiter: boolean }
  /** Opened by `---` and never closed. */
  | { kind: 'unclosed' }
  /** `yaml` lies between the delimiter lines; `body` is everything after the closing line's line break. */
  | { kind: 'block'; yaml: string; body: string };

export function findFrontmatter(text: string): FrontmatterBlock {
  const first = lineAt(text, 0);
  if (!isDelimiter(first.content)) return { kind: 'none', strayDelimiter: /^(?:[ \t]*\r?\n)+---[ \t]*\r?(?:\n|$)/.test(text) };
  let start = first.next;
  while (start < text.length) {
    const line = lineAt(text, start);
    if (isDelimiter(line.content)) {
      return { kind: 'block', yaml: text.slice(first.next, start), body: text.slice(line.next) };
    }
    start = line.next;
  }
  return { kind: 'unclosed' };
}

function lineAt(text: string, start: number): { content: string; next: number } {
  const end = text.indexOf('\n', start);
  return end < 0 ? { content: text.slice(start), next: text.length } : { content: text.slice(start, end), next: end + 1 };
}

function isDelimiter(line: string): boolean {
  return /^---[ \t]*\r?$/.test(line);
}
