/**
 * What a `MEMORY.md` is made of, line by line. Claude Code's current layout makes it an index
 * (`- [file.md](file.md) — description`). Its older layout, and some tools, make it the store
 * itself (entries written inline). People end up with both. Pure: no I/O.
 */

/** index: only links to memory files. standalone: only inline entries. mixed: both. empty: neither. */
export type IndexLayout = 'index' | 'standalone' | 'mixed' | 'empty';

/**
 * link: a line that starts (after any list marker) with a link to a `.md` file.
 * entry: any other list item: an entry written inline.
 * text: any other prose line, table row or line inside a code fence: content too.
 * heading, blank, comment (`<!-- … -->`, possibly over several lines): structure, not content.
 */
export type IndexLineKind = 'link' | 'entry' | 'text' | 'heading' | 'blank' | 'comment';

export interface IndexLine {
  /** 1-based. */
  line: number;
  /** The line without its line break. */
  text: string;
  kind: IndexLineKind;
  /** For a link: the path it points to, relative to the directory, %-escapes decoded. */
  target?: string;
  /** For a link: the link text. */
  label?: string;
  /** For a link: what follows the link, without the separator (`—`, `–`, `-`, `:`). */
  description?: string;
}

export interface MemoryIndexLayout {
  layout: IndexLayout;
  lines: IndexLine[];
}

const LIST_MARKER = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/;
const MD_LINK = /^\[((?:[^\]\\]|\\.)*)\]\((<[^>\n]*>|[^)\s]*)(?:[ \t]+(?:"[^"]*"|'[^']*'))?\)/;
const WIKI_LINK = /^\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]/;
const SEPARATOR = /^[ \t]*(?:—|–|-{1,2}|:)?[ \t]*/;

export function classifyMemoryIndex(text: string): MemoryIndexLayout {
  const raw = text.replace(/^\uFEFF/, '').split('\n');
  if (raw.at(-1) === '') raw.pop();
  const lines: IndexLine[] = [];
  let fence: string | undefined;
  let inComment = false;
  for (const [i, withCr] of raw.entries()) {
    const line = withCr.endsWith('\r') ? withCr.slice(0, -1) : withCr;
    const at = { line: i + 1, text: line };
    const trimmed = line.trim();
    let kind: IndexLineKind;
    let link: ReturnType<typeof linkAtStart>;
    const opensFence = fence === undefined && !inComment ? /^(`{3,}|~{3,})/.exec(trimmed) : null;
    if (fence !== undefined) {
      if (trimmed.startsWith(fence) && trimmed.slice(fence.length).trim() === '') fence = undefined;
      kind = 'text';
    } else if (inComment) {
      inComment = !trimmed.includes('-->');
      kind = 'comment';
    } else if (opensFence) {
      fence = opensFence[1];
      kind = 'text';
    } else if (trimmed === '') {
      kind = 'blank';
    } else if (trimmed.startsWith('<!--')) {
      inComment = !trimmed.includes('-->', 4);
      kind = 'comment';
    } else if (/^#{1,6}(?:[ \t]|$)/.test(trimmed)) {
      kind = 'heading';
    } else {
      const marker = LIST_MARKER.exec(line);
      link = linkAtStart(marker ? line.slice(marker[0].length) : trimmed);
      kind = link ? 'link' : marker ? 'entry' : 'text';
    }
    lines.push(link ? { ...at, kind, ...link } : { ...at, kind });
  }
  const links = lines.some((l) => l.kind === 'link');
  const content = lines.some((l) => l.kind === 'entry' || l.kind === 'text');
  const layout: IndexLayout = links ? (content ? 'mixed' : 'index') : content ? 'standalone' : 'empty';
  return { layout, lines };
}

/** A link to a local markdown file at the start of `rest`: `[label](path.md)` or `[[name]]`. */
function linkAtStart(rest: string): Pick<IndexLine, 'target' | 'label' | 'description'> | undefined {
  const md = MD_LINK.exec(rest);
  if (md) {
    let href = md[2]!;
    if (href.startsWith('<')) href = href.slice(1, -1);
    const path = href.split(/[?#]/)[0]!;
    if (path === '' || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || !/\.md$/i.test(path)) return undefined;
    return { target: decode(path), label: md[1]!.replace(/\\(.)/g, '$1'), description: describe(rest.slice(md[0].length)) };
  }
  const wiki = WIKI_LINK.exec(rest);
  if (wiki) {
    const name = wiki[1]!.trim();
    return { target: /\.md$/i.test(name) ? name : `${name}.md`, label: (wiki[2] ?? name).trim(), description: describe(rest.slice(wiki[0].length)) };
  }
  return undefined;
}

function describe(after: string): string {
  return after.replace(SEPARATOR, '').trim();
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
