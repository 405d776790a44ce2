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
 *
 * This file holds the walk over a body; what each kind of claim is and how it is decided lives
 * beside it: claim-kinds.ts, path-claim.ts, symbol-claim.ts, command-claims.ts, markdown-spans.ts
 * and claim-vocabulary.ts.
 */
import { branchClaim, isBranchName, packageClaim, trimUrl, urlClaim, type BranchClaim, type Claim, type PackageClaim, type PackageEcosystem, type PathClaim, type Span } from './claim-kinds.js';
import { commandClaims } from './command-claims.js';
import { complement, findCodeSpans, findFences, lineEndAt, lineStarts, wordsOf, type CodeSpan, type Fence, type Word } from './markdown-spans.js';
import { pathClaim, pathFromWord, stripLineSuffix } from './path-claim.js';
import { symbolClaim } from './symbol-claim.js';

export { CLAIM_KINDS, VERIFICATION_STATUSES, type BranchClaim, type Claim, type ClaimKind, type PackageClaim, type PackageEcosystem, type PathClaim, type Span, type SymbolClaim, type UrlClaim, type VerificationStatus } from './claim-kinds.js';
import { BRANCH_AFTER, BRANCH_BEFORE, CALL, GO_MODULE, LINK_TARGET, NPM_DEPENDENCY_FIELDS, NPM_NAME, PACKAGE_AFTER, PACKAGE_BEFORE, REQUIREMENT_LOOSE, REQUIREMENT_PINNED, URL_PATTERN, URL_WHOLE } from './claim-vocabulary.js';

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
