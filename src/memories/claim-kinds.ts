/** The kinds of claim a memory body can make, and the constructors that decide each one's verifiability. */
import { EXAMPLE_HOST, LOCAL_HOST } from './claim-vocabulary.js';


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

export function trimUrl(raw: string): string | undefined {
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

export function urlClaim(url: string, span: Span): UrlClaim {
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
export function isBranchName(name: string): boolean {
  if (!name || name.length > 200 || /[\s~^:?*[\\\x00-\x1f\x7f`'"(),;]/.test(name)) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  if (name.includes('..') || name.includes('//') || name.includes('@{') || name === '@') return false;
  return name.split('/').every((part) => part && !part.startsWith('.'));
}

export function branchClaim(name: string, span: Span): BranchClaim {
  const placeholder = /[<>{}*]/.test(name);
  return { kind: 'branch', value: name, span, verifiable: !placeholder, ...(placeholder ? { reason: 'a placeholder' } : {}) };
}

export function packageClaim(name: string, span: Span, ecosystem: PackageEcosystem, unverifiable?: string): PackageClaim {
  return { kind: 'package', value: name, span, verifiable: unverifiable === undefined, ...(unverifiable ? { reason: unverifiable } : {}), ecosystem };
}
