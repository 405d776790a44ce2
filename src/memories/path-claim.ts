/** Path claims: what makes a word a path, at the trust of where it was written. */
import type { PathClaim, Span } from './claim-kinds.js';
import { ABSOLUTE_ROOTS, DOTFILE, EXTENSIONS, KNOWN_DIRS, KNOWN_FILES, MIME_TOPS, SEGMENT, TEMP_ROOTS, WEB_EXTENSIONS, WINDOWS_PATH, WORDLIKE_FILES } from './claim-vocabulary.js';
import type { Word } from './markdown-spans.js';

export function pathFromWord(word: Word, trust: Trust): PathClaim | undefined {
  let text = word.text;
  let start = word.start;
  // Markdown and prose wrap paths in brackets, quotes and emphasis; `_` is left alone (`__init__.py`).
  const lead = /^[("'[*<{]+/.exec(text)?.[0].length ?? 0;
  text = text.slice(lead);
  start += lead;
  if (/^--?[A-Za-z][\w-]*=/.test(text)) {
    const eq = text.indexOf('=') + 1;
    text = text.slice(eq);
    start += eq;
  }
  // Trailing punctuation goes, except a closing bracket the path itself opened (`app/(auth)/x.ts).`).
  text = text.replace(/[)"'\]*>}.,;:!?]+$/, (tail) =>
    /^[)\]>}]/.test(tail) && balanced(text.slice(0, text.length - tail.length) + tail[0]) ? tail[0]! : '',
  );
  if (!text) return undefined;
  const full = text;
  text = stripLineSuffix(text);
  return pathClaim(text, { start, end: start + full.length }, trust);
}

function balanced(text: string): boolean {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '>': '<', '}': '{' };
  const last = text[text.length - 1]!;
  const open = pairs[last];
  if (!open) return true;
  let depth = 0;
  for (const char of text) {
    if (char === open) depth++;
    else if (char === last) depth--;
  }
  return depth === 0;
}

// ---------------------------------------------------------------------------------------------
// Paths

export type Trust = 'code' | 'prose';

export function stripLineSuffix(text: string): string {
  // `a.ts:12`, `a.ts:12:3`, `a.ts#L12-L20`, and compilers' `a.ts(12,3)`.
  return text.replace(/(?::\d+(?::\d+)?|#L\d+(?:-L?\d+)?|\(\d+(?:,\d+)?\))$/, '');
}

/** A path claim for a candidate, or undefined when it is not clearly a path at this trust. */
export function pathClaim(text: string, span: Span, trust: Trust): PathClaim | undefined {
  if (!text || text.length > 400) return undefined;
  if (WINDOWS_PATH.test(text)) {
    return { kind: 'path', value: text, span, verifiable: false, reason: 'a Windows path', anchor: 'windows', directory: /[\\/]$/.test(text), bare: false };
  }
  if (/:\/\/|^[a-z][a-z0-9+.-]*:/i.test(text)) return undefined;
  if (/^[^/@\s]+@[^/\s]+\.[a-z]+$/i.test(text)) return undefined; // an address
  let anchor: PathClaim['anchor'] = 'relative';
  let rest = text;
  if (/^(?:~|\$HOME|\$\{HOME\})\//.test(text)) {
    anchor = 'home';
    rest = text.slice(text.indexOf('/') + 1);
  } else if (text.startsWith('/')) {
    anchor = 'absolute';
    rest = text.slice(1);
  }
  const directory = rest.endsWith('/');
  const segments = (directory ? rest.slice(0, -1) : rest).split('/');
  if (segments.length === 0 || segments.some((segment) => segment === '' || !SEGMENT.test(segment))) return undefined;
  if (!/[A-Za-z]/.test(rest)) return undefined;
  if (segments.every((segment) => /^[\d.-]+$/.test(segment) || /^[A-Za-z]$/.test(segment))) return undefined;
  const last = segments[segments.length - 1]!;
  const first = segments[0]!;
  const dotted = anchor === 'relative' && (first === '.' || first === '..');
  const placeholder = /[<>{}$]|\.\.\.|\bpath\/to\b/.test(rest) ? 'a placeholder' : /[*?]/.test(rest) ? 'a glob' : undefined;

  let accepted: boolean;
  if (anchor === 'absolute') {
    accepted = segments.length >= 1 && (ABSOLUTE_ROOTS.has(first) ? segments.length >= 2 || directory : segments.length >= 2 && hasKnownExtension(last, trust) && !WEB_EXTENSIONS.has(extensionOf(last)));
  } else if (anchor === 'home' || dotted) {
    accepted = segments.length >= (dotted ? 2 : 1);
  } else if (segments.length === 1) {
    accepted = directory ? trust === 'code' || KNOWN_DIRS.has(first) : isBareFileName(first, trust);
  } else if (MIME_TOPS.has(first.toLowerCase())) {
    accepted = false;
  } else {
    accepted = hasKnownExtension(last, trust) || directory || KNOWN_DIRS.has(first) || (trust === 'code' && segments.length >= 3);
    if (!directory && !hasKnownExtension(last, trust) && /\./.test(last) && !KNOWN_DIRS.has(first)) accepted = false;
  }
  if (!accepted) return undefined;

  const temporary = anchor === 'absolute' && TEMP_ROOTS.some((root) => text === root || text.startsWith(`${root}/`)) ? 'a temporary file' : undefined;
  const reason = placeholder ?? temporary;
  return {
    kind: 'path',
    value: text,
    span,
    verifiable: reason === undefined,
    ...(reason ? { reason } : {}),
    anchor,
    directory,
    bare: anchor === 'relative' && segments.length === 1 && !directory,
  };
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

function hasKnownExtension(name: string, trust: Trust): boolean {
  const ext = extensionOf(name);
  if (!ext || !EXTENSIONS.has(ext)) return false;
  // "Node.js", "Vue.js", "chart.js": in prose a bare .js name is a library far more often than a file.
  if (ext === 'js' && trust === 'prose' && !name.includes('/')) return false;
  return /[A-Za-z]/.test(name.slice(0, name.lastIndexOf('.')));
}

function isBareFileName(name: string, trust: Trust): boolean {
  if (KNOWN_FILES.has(name) || /^(?:Dockerfile|Containerfile)\.[\w-]+$/.test(name)) return trust === 'code' || !WORDLIKE_FILES.has(name);
  if (name.startsWith('.')) {
    const rest = name.slice(1);
    if (EXTENSIONS.has(rest.toLowerCase())) return false; // `.ts`: an extension, not a file
    return DOTFILE.test(name) || (trust === 'code' && /^\.[a-z][\w-]*\.[a-z0-9]+$/i.test(name) && hasKnownExtension(rest, trust));
  }
  if (!hasKnownExtension(name, trust)) return false;
  // A capitalised .js name in code is still a product (`Next.js`).
  if (extensionOf(name) === 'js' && /^[A-Z]/.test(name) && !/^[A-Z0-9_]+\.js$/.test(name)) return false;
  return true;
}
