/**
 * Claims a memory's body makes about a project's working tree or the web (DESIGN.md "Scores"):
 * file paths, backticked identifiers, URLs, git branches and packages, each with the span of
 * the body it came from. Pure, no imports, so hooks may load it.
 *
 * Precision over recall: a missing claim costs a memory staleness, so a word mistaken for a claim
 * would age a true memory. What is extracted, and from where:
 * - URLs (http, https) anywhere, fenced code included.
 * - Fenced code blocks yield only what is unmistakable there: install commands (packages), git
 *   commands that name a branch, `requirements.txt` lines, and the dependencies of a
 *   package.json snippet. Code in a fence is full of paths and names that are not claims.
 * - Inline code: a branch or package when the words around it say so ("branch `x`", "the `zod`
 *   package"), install and git commands, a requirement (`httpx==0.27`), a call (`parseConfig()`,
 *   `db.migrate()`), a path, or an identifier that looks like a class (`UserService`), a function
 *   (`parseConfig`) or a member (`db.migrate`, `Parser::parse_expr`). Single lowercase words,
 *   ALL_CAPS names and snake_case without parentheses are left alone: they are as often table
 *   names, environment variables, config keys and tools as code.
 * - Prose: paths that cannot be anything else (a directory and a known extension, `./x`, `~/x`,
 *   an absolute path under a known root, a known file name such as `Makefile`), link targets,
 *   and branches named with the word branch.
 * - Never: version numbers, dates, ratios (`3/4`, `I/O`, `and/or`), routes (`/api/v2/orders`),
 *   `e.g.`, product names (`Node.js`, `GitHub`), "on `main`" (a function, a directory or a branch:
 *   the word branch must be there).
 * Claims that are real but cannot be checked against a working tree are reported with
 * `verifiable: false` and the reason: globs and placeholders, temporary and Windows paths, local
 * and example URLs, global installs, standard-library names.
 */

/** What a memory's body can claim. */
export const CLAIM_KINDS = ['path', 'symbol', 'url', 'branch', 'package'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/**
 * ok: checked and true. missing: checked and false. unverifiable: not checked, or the check
 * could not decide (no git repository, budget spent, network checks off, a claim about another
 * machine...); it never counts against a memory.
 */
export const VERIFICATION_STATUSES = ['ok', 'missing', 'unverifiable'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Offsets into the body, in UTF-16 code units as JavaScript strings count: [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

interface ClaimBase {
  readonly kind: ClaimKind;
  /** The claim, normalised: a path without its `:line`, a symbol without `()`, a package name. */
  readonly value: string;
  readonly span: Span;
  /** False: real, but nothing in a working tree can check it; `reason` says why. */
  readonly verifiable: boolean;
  readonly reason?: string;
}

export interface PathClaim extends ClaimBase {
  readonly kind: 'path';
  /** relative: to the project root; home: `~/`; windows: `C:\`. */
  readonly anchor: 'relative' | 'absolute' | 'home' | 'windows';
  /** Written with a trailing slash. */
  readonly directory: boolean;
  /** A file name without a directory (`tsconfig.json`): it may live anywhere in the tree. */
  readonly bare: boolean;
}

export interface SymbolClaim extends ClaimBase {
  readonly kind: 'symbol';
  /** The names a search must find for the claim to hold (`InvoiceRenderer.renderPdf`: both). */
  readonly terms: readonly string[];
}

export interface UrlClaim extends ClaimBase {
  readonly kind: 'url';
}

export interface BranchClaim extends ClaimBase {
  readonly kind: 'branch';
}

export type PackageEcosystem = 'npm' | 'pypi' | 'cargo' | 'go' | 'gem' | 'composer' | 'any';

export interface PackageClaim extends ClaimBase {
  readonly kind: 'package';
  /** Which manifests can hold it; `any` when only the words said "package". */
  readonly ecosystem: PackageEcosystem;
}

export type Claim = PathClaim | SymbolClaim | UrlClaim | BranchClaim | PackageClaim;

/** Every claim of a memory's markdown body (no frontmatter), ordered by where it starts. */
export function extractClaims(body: string): Claim[] {
  const claims: Claim[] = [];
  const fences = findFences(body);
  const outside = complement(fences.map((fence) => ({ start: fence.start, end: fence.end })), body.length);

  for (const fence of fences) claimsInFence(body, fence, claims);

  // Prose with everything already read blanked out, offsets kept.
  const prose = body.split('');
  const blank = (span: Span) => {
    for (let i = span.start; i < span.end; i++) prose[i] = ' ';
  };
  for (const fence of fences) blank(fence);

  for (const segment of outside) {
    for (const match of body.slice(segment.start, segment.end).matchAll(URL_PATTERN)) {
      const start = segment.start + match.index;
      const url = trimUrl(match[0]);
      if (!url) continue;
      const span = { start, end: start + url.length };
      claims.push(urlClaim(url, span));
      blank(span);
    }
  }

  const spans = outside.flatMap((segment) => findCodeSpans(body, segment));
  let previousBranch: Span | undefined;
  for (const code of spans) {
    const found = claimsInCodeSpan(body, code, previousBranch);
    claims.push(...found);
    // "branches `a`, `b` and `c`": a span right after a branch is a branch too.
    previousBranch = found.length === 1 && found[0]!.kind === 'branch' ? code : undefined;
    blank({ start: code.start, end: code.end });
  }

  const proseText = prose.join('');
  for (const match of proseText.matchAll(LINK_TARGET)) {
    const target = (match[1] ?? match[2])!;
    const start = match.index + match[0].indexOf(target);
    const path = target.replace(/#.*$/, '');
    if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path)) continue;
    const claim = pathClaim(path, { start, end: start + path.length }, 'code');
    if (claim) claims.push(claim);
    blank({ start, end: start + target.length });
  }

  const afterLinks = prose.join('');
  claims.push(...proseBranches(afterLinks));
  for (const claim of claims) if (claim.kind === 'branch') blank(claim.span);
  claims.push(...prosePaths(prose.join('')));

  return claims.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** One claim per kind and value, the first occurrence kept: what a verifier needs to check. */
export function distinctClaims(claims: readonly Claim[]): Claim[] {
  const seen = new Set<string>();
  return claims.filter((claim) => {
    const key = claimKey(claim);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `kind value`, plus the ecosystem for packages and a mark when unverifiable: claims that verify alike share a key. */
export function claimKey(claim: Claim): string {
  const key = claim.kind === 'package' ? `package ${claim.ecosystem} ${claim.value}` : `${claim.kind} ${claim.value}`;
  return claim.verifiable ? key : `${key} (unverifiable)`;
}

// ---------------------------------------------------------------------------------------------
// Markdown structure

interface Fence extends Span {
  readonly info: string;
  readonly contentStart: number;
  readonly contentEnd: number;
}

/** Fenced code blocks (``` or ~~~, up to three spaces of indent); an unclosed one runs to the end. */
function findFences(body: string): Fence[] {
  const fences: Fence[] = [];
  const lines = lineStarts(body);
  let open: { start: number; char: string; length: number; info: string; contentStart: number } | undefined;
  for (const lineStart of lines) {
    const lineEnd = lineEndAt(body, lineStart);
    const line = body.slice(lineStart, lineEnd);
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!open) {
      if (match && !(match[1]![0] === '`' && match[2]!.includes('`'))) {
        open = { start: lineStart, char: match[1]![0]!, length: match[1]!.length, info: match[2]!.trim().split(/\s+/)[0] ?? '', contentStart: Math.min(body.length, lineEnd + 1) };
      }
    } else if (match && match[1]![0] === open.char && match[1]!.length >= open.length && match[2]!.trim() === '') {
      fences.push({ start: open.start, end: lineEnd, info: open.info.toLowerCase(), contentStart: open.contentStart, contentEnd: lineStart });
      open = undefined;
    }
  }
  if (open) fences.push({ start: open.start, end: body.length, info: open.info.toLowerCase(), contentStart: open.contentStart, contentEnd: body.length });
  return fences;
}

interface CodeSpan extends Span {
  readonly contentStart: number;
  readonly contentEnd: number;
}

/**
 * CommonMark code spans: a run of n backticks up to the next run of exactly n. The runs are
 * listed first and matched by length, so a body full of unmatched runs of different lengths
 * costs one pass, not one pass per run.
 */
function findCodeSpans(body: string, segment: Span): CodeSpan[] {
  const runs: Array<{ start: number; length: number }> = [];
  for (let i = segment.start; i < segment.end; ) {
    if (body[i] !== '`') {
      i++;
      continue;
    }
    let n = 0;
    while (i + n < segment.end && body[i + n] === '`') n++;
    // A backslash before a run makes its first backtick literal.
    const escaped = i > segment.start && body[i - 1] === '\\' && body[i - 2] !== '\\';
    if (!escaped) runs.push({ start: i, length: n });
    else if (n > 1) runs.push({ start: i + 1, length: n - 1 });
    i += n;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((run, index) => {
    const list = byLength.get(run.length);
    if (list) list.push(index);
    else byLength.set(run.length, [index]);
  });
  const cursor = new Map<number, number>();
  const spans: CodeSpan[] = [];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const candidates = byLength.get(open.length)!;
    let at = cursor.get(open.length) ?? 0;
    while (at < candidates.length && candidates[at]! <= i) at++;
    cursor.set(open.length, at);
    if (at >= candidates.length) continue;
    const closeIndex = candidates[at]!;
    const close = runs[closeIndex]!;
    let contentStart = open.start + open.length;
    let contentEnd = close.start;
    const content = body.slice(contentStart, contentEnd);
    if (content.length >= 2 && /^[ \n]/.test(content) && /[ \n]$/.test(content) && content.trim() !== '') {
      contentStart++;
      contentEnd--;
    }
    spans.push({ start: open.start, end: close.start + close.length, contentStart, contentEnd });
    i = closeIndex;
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Fenced code

function claimsInFence(body: string, fence: Fence, claims: Claim[]): void {
  const content = body.slice(fence.contentStart, fence.contentEnd);
  for (const match of content.matchAll(URL_PATTERN)) {
    const url = trimUrl(match[0]);
    if (url) claims.push(urlClaim(url, { start: fence.contentStart + match.index, end: fence.contentStart + match.index + url.length }));
  }
  if (fence.info === 'json' || fence.info === 'jsonc' || /^\s*\{/.test(content)) {
    claims.push(...packageJsonSnippet(content, fence.contentStart));
    return;
  }
  const requirementsFence = isRequirementsBlock(body, fence, content);
  for (const lineStart of lineStarts(content)) {
    const line = content.slice(lineStart, lineEndAt(content, lineStart));
    const offset = fence.contentStart + lineStart;
    if (requirementsFence) {
      const requirement = requirementLine(line, offset, false);
      if (requirement) claims.push(requirement);
      continue;
    }
    claims.push(...commandClaims(line.replace(/^\s*(?:\$|>|#|%)\s+/, (prefix) => ' '.repeat(prefix.length)), offset));
  }
}

/** Every line a requirement with a version, or the fence labelled or introduced as requirements. */
function isRequirementsBlock(body: string, fence: Fence, content: string): boolean {
  // `-r other.txt`, `--index-url ...`: options of a requirements file, not requirements.
  const lines = content.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#') && !line.startsWith('-'));
  if (lines.length === 0) return false;
  if (lines.every((line) => REQUIREMENT_PINNED.test(line))) return true;
  const introduced = /requirements[\w.-]*\.txt|\brequirements\b/i.test(body.slice(Math.max(0, fence.start - 200), fence.start)) || fence.info === 'requirements';
  return introduced && lines.every((line) => REQUIREMENT_LOOSE.test(line));
}

function requirementLine(line: string, offset: number, needVersion: boolean): PackageClaim | undefined {
  const trimmed = line.replace(/\s+#.*$/, '');
  const match = (needVersion ? REQUIREMENT_PINNED : REQUIREMENT_LOOSE).exec(trimmed.trim());
  if (!match) return undefined;
  const name = match[1]!;
  const start = offset + line.indexOf(name);
  return packageClaim(name, { start, end: start + name.length }, 'pypi');
}

function packageJsonSnippet(content: string, offset: number): PackageClaim[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  const claims: PackageClaim[] = [];
  for (const field of NPM_DEPENDENCY_FIELDS) {
    const deps = (parsed as Record<string, unknown>)[field];
    if (typeof deps !== 'object' || deps === null || Array.isArray(deps)) continue;
    const fieldAt = content.indexOf(`"${field}"`);
    for (const name of Object.keys(deps)) {
      if (!NPM_NAME.test(name)) continue;
      const at = content.indexOf(`"${name}"`, Math.max(0, fieldAt));
      const start = offset + (at >= 0 ? at + 1 : 0);
      claims.push(packageClaim(name, { start, end: start + name.length }, 'npm'));
    }
  }
  return claims;
}

// ---------------------------------------------------------------------------------------------
// Commands: install commands and git commands, in fences and inline code

interface Word {
  readonly text: string;
  readonly start: number;
}

/** Packages and branches a shell line names; `offset` is where the line starts in the body. */
function commandClaims(line: string, offset: number): Claim[] {
  const claims: Claim[] = [];
  for (const words of shellSegments(line, offset)) {
    const packages = installedPackages(words);
    if (packages) claims.push(...packages);
    const branch = gitBranch(words);
    if (branch) claims.push(branch);
  }
  return claims;
}

/** Words of each simple command of a line (split at `&&`, `||`, `;`, `|`), quotes removed. */
function shellSegments(line: string, offset: number): Word[][] {
  const segments: Word[][] = [[]];
  for (const match of line.matchAll(/&&|\|\||[;|]|[^\s;|&]+(?:&(?!&)[^\s;|&]*)*/g)) {
    if (/^(?:&&|\|\||;|\|)$/.test(match[0])) {
      segments.push([]);
      continue;
    }
    let text = match[0];
    let start = offset + match.index;
    const quoted = /^(['"])(.*)\1$/.exec(text);
    if (quoted) {
      text = quoted[2]!;
      start++;
    }
    segments[segments.length - 1]!.push({ text, start });
  }
  return segments.map((words) => {
    // `sudo`, `FOO=1` and the like in front of the program.
    let i = 0;
    while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.text) || words[i]!.text === 'sudo' || words[i]!.text === 'time')) i++;
    return words.slice(i);
  });
}

interface Installer {
  readonly ecosystem: Exclude<PackageEcosystem, 'any'>;
  /** Subcommands that add a package to the project. */
  readonly add: readonly string[];
  /** Subcommands that install a program for the machine, not the project. */
  readonly global?: readonly string[];
  /** Options that take the next word as their value. */
  readonly valued: readonly string[];
}

const INSTALLERS: Readonly<Record<string, Installer>> = {
  npm: { ecosystem: 'npm', add: ['i', 'install', 'add', 'in'], valued: ['-w', '--workspace', '--prefix', '--registry', '--tag', '--omit', '--include'] },
  pnpm: { ecosystem: 'npm', add: ['add', 'i', 'install'], valued: ['-F', '--filter', '-C', '--dir', '--registry', '-w'] },
  yarn: { ecosystem: 'npm', add: ['add'], global: ['global'], valued: ['--cwd', '--registry'] },
  bun: { ecosystem: 'npm', add: ['add', 'i', 'install'], valued: ['--cwd'] },
  pip: { ecosystem: 'pypi', add: ['install'], valued: ['-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-t', '--target', '-e', '--editable', '-f', '--find-links'] },
  pip3: { ecosystem: 'pypi', add: ['install'], valued: ['-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-t', '--target', '-e', '--editable', '-f', '--find-links'] },
  poetry: { ecosystem: 'pypi', add: ['add'], valued: ['-G', '--group', '-E', '--extras', '--source'] },
  uv: { ecosystem: 'pypi', add: ['add'], valued: ['--group', '--optional', '--package', '-r', '--requirements'] },
  pipx: { ecosystem: 'pypi', add: [], global: ['install'], valued: [] },
  cargo: { ecosystem: 'cargo', add: ['add'], global: ['install'], valued: ['-p', '--package', '-F', '--features', '--rename', '--registry', '--git', '--branch', '--tag', '--rev', '--path'] },
  go: { ecosystem: 'go', add: ['get'], global: ['install'], valued: [] },
  gem: { ecosystem: 'gem', add: [], global: ['install'], valued: ['-v', '--version', '-s', '--source'] },
  bundle: { ecosystem: 'gem', add: ['add'], valued: ['-v', '--version', '-g', '--group', '-s', '--source'] },
  composer: { ecosystem: 'composer', add: ['require'], global: ['global'], valued: ['--working-dir', '-d'] },
};

function installedPackages(words: readonly Word[]): PackageClaim[] | undefined {
  let rest = words;
  // `python -m pip install`, `uv pip install`
  if (/^python[0-9.]*$/.test(rest[0]?.text ?? '') && rest[1]?.text === '-m' && rest[2]?.text === 'pip') rest = rest.slice(2);
  else if (rest[0]?.text === 'uv' && rest[1]?.text === 'pip') rest = rest.slice(1);
  const installer = INSTALLERS[rest[0]?.text ?? ''];
  if (!installer) return undefined;
  let i = 1;
  const skipOptions = () => {
    while (i < rest.length && rest[i]!.text.startsWith('-')) {
      i += installer.valued.includes(rest[i]!.text) ? 2 : 1;
    }
  };
  skipOptions();
  const sub = rest[i]?.text ?? '';
  let global = false;
  if (installer.global?.includes(sub)) {
    global = true;
    i++;
    // `yarn global add x`, `composer global require x`
    if (installer.add.includes(rest[i]?.text ?? '')) i++;
  } else if (installer.add.includes(sub)) {
    i++;
  } else {
    return undefined;
  }
  const claims: PackageClaim[] = [];
  for (; i < rest.length; i++) {
    const word = rest[i]!;
    if (word.text.startsWith('-')) {
      if (word.text === '-g' || word.text === '--global' || word.text === '--user') global = true;
      if (installer.valued.includes(word.text)) i++;
      continue;
    }
    const name = packageName(word.text, installer.ecosystem);
    if (!name) continue;
    const start = word.start + word.text.indexOf(name);
    claims.push(packageClaim(name, { start, end: start + name.length }, installer.ecosystem, global ? 'installed for the machine, not the project' : undefined));
  }
  return claims;
}

/** The package a command-line argument names, without its version; undefined for paths, URLs. */
function packageName(arg: string, ecosystem: Installer['ecosystem']): string | undefined {
  if (/^(?:\.{0,2}\/|~|[a-z+]+:)/i.test(arg) || arg === '.' || arg.endsWith('.txt') || arg.endsWith('.whl') || arg.endsWith('.tgz')) return undefined;
  switch (ecosystem) {
    case 'npm': {
      const name = /^(@[^@/\s]+\/[^@/\s]+|[^@/\s]+)(?:@.*)?$/.exec(arg)?.[1];
      return name && NPM_NAME.test(name) ? name : undefined;
    }
    case 'pypi': {
      const name = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:\s*(?:==|>=|<=|~=|!=|>|<).*)?$/.exec(arg)?.[1];
      return name && /[A-Za-z]/.test(name) ? name : undefined;
    }
    case 'cargo':
    case 'gem': {
      const name = /^([A-Za-z0-9][A-Za-z0-9_-]*)(?:@.*|:.*)?$/.exec(arg)?.[1];
      return name && /[A-Za-z]/.test(name) ? name : undefined;
    }
    case 'go': {
      const name = /^([a-z0-9.-]+\.[a-z]{2,}(?:\/[A-Za-z0-9._~-]+)+)(?:@.*)?$/.exec(arg)?.[1];
      return name;
    }
    case 'composer': {
      const name = /^([a-z0-9_.-]+\/[a-z0-9_.-]+)(?::.*)?$/.exec(arg)?.[1];
      return name;
    }
  }
}

/** `git checkout -b X`, `git switch [-c] X`, `git branch X`, `git push [-u] <remote> X`. */
function gitBranch(words: readonly Word[]): BranchClaim | undefined {
  if (words[0]?.text !== 'git') return undefined;
  let i = 1;
  while (i < words.length && words[i]!.text.startsWith('-')) i += words[i]!.text === '-C' || words[i]!.text === '-c' ? 2 : 1;
  const sub = words[i]?.text;
  const args = words.slice(i + 1);
  let name: Word | undefined;
  if (sub === 'checkout') {
    const flag = args.findIndex((word) => word.text === '-b' || word.text === '-B');
    if (flag >= 0) name = args[flag + 1];
  } else if (sub === 'switch') {
    const flag = args.findIndex((word) => word.text === '-c' || word.text === '-C' || word.text === '--create');
    name = flag >= 0 ? args[flag + 1] : args.find((word) => !word.text.startsWith('-'));
  } else if (sub === 'branch') {
    if (args.some((word) => /^-(?:d|D|m|M|c|C|r|a|l|-list|-delete|-move|-copy|-all|-remotes|-contains|-merged|-no-merged|-show-current)$/.test(word.text))) return undefined;
    name = args.find((word) => !word.text.startsWith('-'));
  } else if (sub === 'push') {
    const positional = args.filter((word) => !word.text.startsWith('-'));
    name = positional.length >= 2 ? positional[1] : undefined;
  }
  if (!name || name.text.includes(':') || name.text === 'HEAD' || name.text === '-' || name.text === '@') return undefined;
  return branchClaim(name.text, { start: name.start, end: name.start + name.text.length });
}

// ---------------------------------------------------------------------------------------------
// Inline code

function claimsInCodeSpan(body: string, code: CodeSpan, previousBranch: Span | undefined): Claim[] {
  const raw = body.slice(code.contentStart, code.contentEnd);
  const content = raw.replace(/\n/g, ' ');
  const trimmed = content.trim();
  if (!trimmed) return [];
  const start = code.contentStart + (content.length - content.trimStart().length);
  const span = { start, end: start + trimmed.length };
  if (URL_WHOLE.test(trimmed)) return [];

  const before = body.slice(Math.max(0, code.start - 60), code.start);
  const after = body.slice(code.end, code.end + 40);
  const listedAfterBranch = previousBranch !== undefined && /^(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)$/.test(body.slice(previousBranch.end, code.start));
  if (BRANCH_BEFORE.test(before) || BRANCH_AFTER.test(after) || listedAfterBranch) {
    if (isBranchName(trimmed)) return [branchClaim(trimmed, span)];
  }
  const packageWord = PACKAGE_AFTER.exec(after)?.[1] ?? PACKAGE_BEFORE.exec(before)?.[1];
  if (packageWord) {
    const ecosystem: PackageEcosystem = /^crate/i.test(packageWord) ? 'cargo' : /^gem/i.test(packageWord) ? 'gem' : 'any';
    if (NPM_NAME.test(trimmed) || GO_MODULE.test(trimmed) || /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(trimmed)) return [packageClaim(trimmed, span, ecosystem)];
  }
  const requirement = REQUIREMENT_PINNED.exec(trimmed);
  if (requirement && !/\s/.test(trimmed)) return [packageClaim(requirement[1]!, { start, end: start + requirement[1]!.length }, 'pypi')];

  const call = CALL.exec(trimmed);
  if (call) {
    const symbol = symbolClaim(call[1]!, { start, end: start + call[1]!.length }, true);
    return symbol ? [symbol] : [];
  }
  if (/\s/.test(trimmed)) {
    const commands = commandClaims(content, code.contentStart);
    const used = new Set(commands.map((claim) => claim.span.start));
    const words = wordsOf(content, code.contentStart);
    const paths = words
      .filter((word) => !used.has(word.start))
      // The word after `cd` is a directory, whatever it looks like.
      .map((word, i) => (i > 0 && words[i - 1]!.text === 'cd' ? cdTarget(word) : pathFromWord(word, 'code')))
      .filter((claim): claim is PathClaim => claim !== undefined);
    return [...commands, ...paths];
  }
  const path = pathClaim(stripLineSuffix(trimmed), span, 'code');
  if (path) return [path];
  const symbol = symbolClaim(trimmed, span, false);
  return symbol ? [symbol] : [];
}

function cdTarget(word: Word): PathClaim | undefined {
  const text = word.text.replace(/[;&|)]+$/, '');
  if (text === '-' || text === '~' || text === '..' || text === '.') return undefined;
  const span = { start: word.start, end: word.start + text.length };
  const claim = pathClaim(text.endsWith('/') ? text : `${text}/`, span, 'code');
  return claim ? { ...claim, value: text } : pathFromWord(word, 'code');
}

function wordsOf(text: string, offset: number): Word[] {
  return [...text.matchAll(/\S+/g)].map((match) => ({ text: match[0], start: offset + match.index }));
}

// ---------------------------------------------------------------------------------------------
// Prose

function proseBranches(text: string): BranchClaim[] {
  const claims: BranchClaim[] = [];
  for (const match of text.matchAll(/\bbranch(?:es)?\s+(?:(?:is|are)\s+)?(?:named\s+|called\s+)?([A-Za-z0-9][\w./-]*[\w])/gi)) {
    const name = match[1]!;
    if (!isMarkedBranchName(name)) continue;
    const start = match.index + match[0].length - name.length;
    claims.push(branchClaim(name, { start, end: start + name.length }));
  }
  for (const match of text.matchAll(/(?<![\w./-])([A-Za-z0-9][\w./-]*[\w])\s+branch(?:es)?\b/gi)) {
    const name = match[1]!;
    if (!isMarkedBranchName(name)) continue;
    claims.push(branchClaim(name, { start: match.index, end: match.index + name.length }));
  }
  return claims;
}

/** Unquoted, a branch name must look like one (`release-2.1`, `feat/x`), not a word (main, feature). */
function isMarkedBranchName(name: string): boolean {
  return isBranchName(name) && /[/_\-\d]/.test(name) && /[A-Za-z]/.test(name) && !/^\d+(?:[.-]\d+)*$/.test(name) && !/^(?:\d+-)?(?:week|day|month|year|hour|minute)s?$/i.test(name);
}

function prosePaths(text: string): PathClaim[] {
  return wordsOf(text, 0)
    .map((word) => pathFromWord(word, 'prose'))
    .filter((claim): claim is PathClaim => claim !== undefined);
}

/** A whitespace-separated word as a path, once quotes, brackets and punctuation are off. */
function pathFromWord(word: Word, trust: Trust): PathClaim | undefined {
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

type Trust = 'code' | 'prose';

function stripLineSuffix(text: string): string {
  // `a.ts:12`, `a.ts:12:3`, `a.ts#L12-L20`, and compilers' `a.ts(12,3)`.
  return text.replace(/(?::\d+(?::\d+)?|#L\d+(?:-L?\d+)?|\(\d+(?:,\d+)?\))$/, '');
}

/** A path claim for a candidate, or undefined when it is not clearly a path at this trust. */
function pathClaim(text: string, span: Span, trust: Trust): PathClaim | undefined {
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

// ---------------------------------------------------------------------------------------------
// Symbols

function symbolClaim(text: string, span: Span, called: boolean): SymbolClaim | undefined {
  const chain = SYMBOL_CHAIN.exec(text);
  if (!chain) return undefined;
  const parts = text.split(/\.|::|#/);
  if (parts.some((part) => !part)) return undefined;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (parts.length === 1) {
    if (KEYWORDS.has(first)) return undefined;
    if (!called && !PASCAL.test(first) && !CAMEL.test(first)) return undefined;
    if (PRODUCTS.has(first) || CLAUDE_CODE_TOOLS.has(first)) return undefined;
  } else {
    if (!called && parts.length === 2 && last === 'js' && /^[A-Z]/.test(first)) return undefined; // Next.js
    if (!called && parts.length >= 2 && TLDS.has(last) && parts.every((part) => /^[a-z0-9-]+$/.test(part))) return undefined;
    if (!called && parts.every((part) => /^\d/.test(part) || /^v?\d/.test(part))) return undefined;
  }
  const platform = PLATFORM_RECEIVERS.has(first) || (parts.length === 1 && PLATFORM_GLOBALS.has(first)) || text.startsWith('std::');
  const terms = parts.length >= 2 && PASCAL_START.test(first) && !['this', 'self'].includes(first) ? [first, last] : [last];
  return {
    kind: 'symbol',
    value: text,
    span,
    verifiable: !platform,
    ...(platform ? { reason: 'a standard-library or platform name, not the project’s' } : {}),
    terms: platform ? [] : terms,
  };
}

// ---------------------------------------------------------------------------------------------
// URLs, branches, packages

function trimUrl(raw: string): string | undefined {
  let url = raw;
  for (;;) {
    const before = url;
    url = url.replace(/[.,;:!?*_'"]+$/, '');
    if (url.endsWith(')') && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) url = url.slice(0, -1);
    if (url.endsWith(']') && (url.match(/\[/g)?.length ?? 0) < (url.match(/\]/g)?.length ?? 0)) url = url.slice(0, -1);
    if (url === before) break;
  }
  return /^https?:\/\/[^/?#]+/.test(url) ? url : undefined;
}

function urlClaim(url: string, span: Span): UrlClaim {
  const host = /^https?:\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^:/?#]+)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  const reason = LOCAL_HOST.test(host)
    ? 'a local or private address'
    : EXAMPLE_HOST.test(host)
      ? 'an example address'
      : /[<>{}]|\.\.\.|\$\{?[A-Z]/.test(url)
        ? 'a placeholder'
        : undefined;
  return { kind: 'url', value: url, span, verifiable: reason === undefined, ...(reason ? { reason } : {}) };
}

/** git check-ref-format's rules, and no shell or markdown noise; a `<placeholder>` passes (and is reported unverifiable). */
function isBranchName(name: string): boolean {
  if (!name || name.length > 200 || /[\s~^:?*[\\\x00-\x1f\x7f`'"(),;]/.test(name)) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  if (name.includes('..') || name.includes('//') || name.includes('@{') || name === '@') return false;
  return name.split('/').every((part) => part && !part.startsWith('.'));
}

function branchClaim(name: string, span: Span): BranchClaim {
  const placeholder = /[<>{}*]/.test(name);
  return { kind: 'branch', value: name, span, verifiable: !placeholder, ...(placeholder ? { reason: 'a placeholder' } : {}) };
}

function packageClaim(name: string, span: Span, ecosystem: PackageEcosystem, unverifiable?: string): PackageClaim {
  return { kind: 'package', value: name, span, verifiable: unverifiable === undefined, ...(unverifiable ? { reason: unverifiable } : {}), ecosystem };
}

// ---------------------------------------------------------------------------------------------
// Text helpers

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (i + 1 < text.length) starts.push(i + 1);
  return starts;
}

function lineEndAt(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
}

function complement(spans: readonly Span[], length: number): Span[] {
  const out: Span[] = [];
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start > at) out.push({ start: at, end: span.start });
    at = Math.max(at, span.end);
  }
  if (at < length) out.push({ start: at, end: length });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`\\]+/gi;
const URL_WHOLE = /^https?:\/\/\S+$/i;
/** `[text](target "title")`, `![alt](target)` and `[1]: target` reference definitions. */
const LINK_TARGET = /\]\(\s*<?([^\s<>()]+)>?(?:\s+"[^"]*")?\s*\)|^ {0,3}\[[^\]]+\]:\s*<?([^\s<>]+)>?/gm;
const WINDOWS_PATH = /^[A-Za-z]:\\[^\s]*$/;
/** A path segment: names, placeholders and globs, Next.js `[slug]` and `(group)` directories. */
const SEGMENT = /^[\w.@+~<>{}$*?[\]()-]+$/;
const DOTFILE = /^\.(?:env(?:\.[\w-]+)?|gitignore|gitattributes|gitmodules|npmrc|nvmrc|yarnrc(?:\.yml)?|editorconfig|dockerignore|prettierrc(?:\.\w+)?|prettierignore|eslintrc(?:\.\w+)?|eslintignore|babelrc(?:\.\w+)?|stylelintrc(?:\.\w+)?|browserslistrc|tool-versions|python-version|node-version|ruby-version|terraform-version|pre-commit-config\.yaml|gitlab-ci\.yml|mailmap|venv|github|vscode|claude|husky|devcontainer|circleci|cargo|idea)$/;

const CALL = /^(?:new\s+)?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*;?$/;
const SYMBOL_CHAIN = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*$/;
/** Two or more capitals and a lower-case letter: `UserService`, `HTTPServer`; not `Bash`, `JSON`. */
const PASCAL = /^(?=(?:[^A-Z]*[A-Z]){2})(?=.*[a-z])[A-Z][A-Za-z0-9]*$/;
const PASCAL_START = /^[A-Z][a-z0-9]*[A-Z]?/;
const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

const BRANCH_BEFORE = /\bbranch(?:es)?\s+(?:(?:is|are)\s+)?(?:named\s+|called\s+)?$/i;
const BRANCH_AFTER = /^\s+branch(?:es)?\b/i;
const PACKAGE_AFTER = /^\s+(packages?|librar(?:y|ies)|crates?|gems?|dependenc(?:y|ies)|deps?)\b/i;
const PACKAGE_BEFORE = /\b(package|crate|gem|dependency|library)\s+$/i;

const NPM_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;
const GO_MODULE = /^[a-z0-9.-]+\.[a-z]{2,}(?:\/[A-Za-z0-9._~-]+)+$/;
// A version stops at a comma: each further specifier is the group's, never the version's before it.
const REQUIREMENT_PINNED = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:==|>=|<=|~=|!=|===)\s*\d[^\s;#,]*(?:\s*,\s*(?:==|>=|<=|~=|!=|<|>)\s*\d[^\s;#,]*)*(?:\s*;.*)?$/;
const REQUIREMENT_LOOSE = /^([A-Za-z][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:(?:==|>=|<=|~=|!=|===|<|>)\s*\d[^\s;#,]*(?:\s*,\s*(?:==|>=|<=|~=|!=|<|>)\s*\d[^\s;#,]*)*)?(?:\s*;.*)?$/;
const NPM_DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

const LOCAL_HOST = /^(?:localhost|.*\.localhost|.*\.local|.*\.test|.*\.invalid|127(?:\.\d+){3}|0\.0\.0\.0|10(?:\.\d+){3}|192\.168(?:\.\d+){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d+){2}|\[::1?\]|\[f[cd][0-9a-f:]*\])$/;
const EXAMPLE_HOST = /^(?:(?:.*\.)?example\.(?:com|org|net)|.*\.example)$/;
/** Top-level domains that are rarely a member's name (not info, app, dev, page: `logger.info` is code). */
const TLDS: ReadonlySet<string> = new Set('com org net io co uk de fr jp cn ru edu gov us ca au nl eu ly gg xyz'.split(' '));

/** Extensions a file name may carry. Left out: log, map, env, io, m, r, v, d, fs, ex, ml, in (members and TLDs). */
const EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx markdown txt rst adoc yaml yml toml ini cfg conf lock ' +
    'py pyi ipynb rb erb rake gemspec go mod sum rs java kt kts scala groovy gradle swift h hpp hh c cc cpp cxx cs vb ' +
    'php pl pm lua dart exs erl hrl clj cljs elm hs mli jl sh bash zsh fish ps1 bat cmd sql graphql gql proto prisma ' +
    'html htm css scss sass less styl vue svelte astro xml xsd svg png jpg jpeg gif webp ico pdf csv tsv parquet ' +
    'drawio tf tfvars hcl nix pem crt pfx p12 wasm zip tar gz tgz patch diff plist properties j2 jinja tmpl tpl hbs ' +
    'ejs pug liquid sol zig nim cmake mk bzl bazel prof dat db sqlite sqlite3 bin out'
  ).split(' '),
);
/** Extensions of web routes more than of files: `/api/orders.json` is an endpoint. */
const WEB_EXTENSIONS: ReadonlySet<string> = new Set(['json', 'xml', 'html', 'htm', 'php']);
const KNOWN_FILES: ReadonlySet<string> = new Set(
  'Makefile GNUmakefile Dockerfile Containerfile Jenkinsfile Procfile Gemfile Rakefile Vagrantfile Brewfile Justfile justfile Caddyfile Tiltfile Podfile Pipfile Guardfile Earthfile LICENSE CODEOWNERS NOTICE AUTHORS OWNERS'.split(' '),
);
/** Known file names that are also words, so only taken from inline code. */
const WORDLIKE_FILES: ReadonlySet<string> = new Set(['LICENSE', 'NOTICE', 'AUTHORS', 'OWNERS']);
/** First directories that make `x/y` a path even without an extension. */
const KNOWN_DIRS: ReadonlySet<string> = new Set(
  'src lib libs test tests spec specs docs doc scripts script packages apps app internal cmd pkg config configs bin public assets static e2e fixtures tools components migrations examples benches bench include crates modules services .github .vscode .claude .husky'.split(' '),
);
const MIME_TOPS: ReadonlySet<string> = new Set(['application', 'text', 'image', 'audio', 'video', 'multipart', 'font', 'model', 'message']);
const ABSOLUTE_ROOTS: ReadonlySet<string> = new Set(
  'etc usr var home Users opt tmp private Library System Applications bin sbin lib lib64 srv mnt media Volumes root proc dev sys run nix snap workspaces'.split(' '),
);
const TEMP_ROOTS = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/tmp', '/dev/shm'];

const KEYWORDS: ReadonlySet<string> = new Set('if for while switch catch function return typeof sizeof super import export await async yield new delete void def class fn func let const var else elif match loop'.split(' '));
/** Receivers whose members belong to a language's library or runtime, not to the project. */
const PLATFORM_RECEIVERS: ReadonlySet<string> = new Set(
  (
    'JSON Math Object Array Promise Reflect Number String Symbol Date RegExp Intl Atomics BigInt Proxy Map Set WeakMap Error ' +
    'console process window document navigator globalThis Buffer fs path os util crypto http https url child_process stream ' +
    'events zlib assert sys re json math time datetime subprocess itertools functools collections typing pathlib logging ' +
    'asyncio shutil fmt strings strconv errors Vec Option Result Box HashMap'
  ).split(' '),
);
/** Globals of JavaScript, Python and Go a project calls but does not define. */
const PLATFORM_GLOBALS: ReadonlySet<string> = new Set(
  (
    'fetch setTimeout setInterval clearTimeout clearInterval setImmediate structuredClone queueMicrotask requestAnimationFrame ' +
    'parseInt parseFloat isNaN encodeURIComponent decodeURIComponent encodeURI decodeURI atob btoa require eval alert ' +
    'print len range open isinstance issubclass enumerate zip sorted reversed map filter dict list set tuple int str float ' +
    'bool repr type id input sum min max abs any all iter next hasattr getattr setattr vars dir append make panic println ' +
    'WebSocket URLSearchParams AbortController AbortSignal TextEncoder TextDecoder ReadableStream WritableStream FormData ' +
    'XMLHttpRequest IntersectionObserver MutationObserver ResizeObserver HTMLElement SharedArrayBuffer ArrayBuffer ' +
    'Uint8Array DataView WeakRef FinalizationRegistry AggregateError TypeError RangeError SyntaxError ReferenceError ' +
    'DOMParser BroadcastChannel MessageChannel localStorage sessionStorage'
  ).split(' '),
);
/** Claude Code's own tools: memories name them often, and they are not the project's code. */
const CLAUDE_CODE_TOOLS: ReadonlySet<string> = new Set(
  'Bash BashOutput KillShell KillBash Read Write Edit MultiEdit Glob Grep LS WebFetch WebSearch TodoWrite TodoRead Task NotebookEdit NotebookRead ExitPlanMode SlashCommand Skill AskUserQuestion'.split(' '),
);
/** Product names written like identifiers. */
const PRODUCTS: ReadonlySet<string> = new Set(
  (
    'GitHub GitLab BitBucket PostgreSQL MySQL SQLite MongoDB DynamoDB CockroachDB LevelDB LanceDB RocksDB DuckDB ClickHouse ' +
    'InfluxDB CouchDB MariaDB TimescaleDB SurrealDB PlanetScale TypeScript JavaScript CoffeeScript PowerShell GraphQL NoSQL ' +
    'OpenAI ChatGPT OpenAPI FastAPI NestJS NextJS NodeJS VueJS ReactJS SvelteKit TailwindCSS WebStorm IntelliJ PyCharm ' +
    'GoLand RubyMine PhpStorm CLion DataGrip VSCode YouTube LinkedIn PayPal WordPress DigitalOcean CloudFront CloudWatch ' +
    'CloudFormation BigQuery BigTable EventBridge AppSync ElasticSearch OpenSearch LaunchDarkly PagerDuty DataDog NewRelic ' +
    'SendGrid MailChimp HubSpot SalesForce ServiceNow WhatsApp JetBrains HashiCorp CircleCI TravisCI MacBook OneDrive ' +
    'SharePoint DevOps DevTools WebAssembly WebGL WebGPU OAuth OpenID HuggingFace LangChain LlamaIndex OpenTelemetry ArgoCD ' +
    'RabbitMQ ActiveMQ ZeroMQ KeyDB MinIO PyPI PyTorch TensorFlow NumPy SciPy iOS macOS iPadOS watchOS tvOS visionOS ' +
    'iPhone iPad iCloud jQuery eBay pgAdmin phpMyAdmin gRPC tRPC npmJS GitOps FinOps MLOps LaTeX'
  ).split(' '),
);
