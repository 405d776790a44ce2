/**
 * Claims a memory's body makes about a project's working tree or the web (DESIGN.md "Scores").
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
