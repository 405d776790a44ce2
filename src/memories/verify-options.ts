import type { Claim, VerificationStatus } from './claims.js';

/* What a claims check is told (the project, its budget) and what it answers (verify-claims.ts). */

export interface VerifyBudget {
  /** Wall time of the whole run, in ms. Default 10 s. */
  readonly timeMs?: number;
  /** Entries (files and directories) the tree walk may list. Default 20,000. */
  readonly maxEntries?: number;
  /** Bytes the identifier scan may read in all. Default 64 MiB. */
  readonly maxBytes?: number;
  /** Bytes read of one source file. Default 1 MiB. */
  readonly maxFileBytes?: number;
  /** Size of a manifest or lockfile still read. Default 16 MiB. */
  readonly maxManifestBytes?: number;
  /** Distinct claims checked per run; the rest are unverifiable. Default 500. */
  readonly maxClaims?: number;
  /** One git command. Default 5 s. */
  readonly gitTimeoutMs?: number;
  /** One URL. Default 5 s. */
  readonly urlTimeoutMs?: number;
  /** URLs checked at once. Default 4. */
  readonly urlConcurrency?: number;
}

/** The part of `fetch` used here, so tests can answer without a network. */
export type FetchLike = (
  url: string,
  init: { method: 'HEAD' | 'GET'; signal: AbortSignal; redirect: 'follow' },
) => Promise<{ status: number; body?: { cancel(): Promise<void> } | null }>;

export interface VerifyOptions {
  /** The project root, absolute: the session's cwd. */
  readonly root: string;
  readonly signal?: AbortSignal;
  /** Check URLs over the network (the user's `--network`). Default false. */
  readonly network?: boolean;
  /** Default: the global fetch. */
  readonly fetch?: FetchLike;
  /** Where `~/` points. Default: the user's home directory. */
  readonly homeDir?: string;
  /** false: never run git (files are still read); a string: the git binary. Default `git` on PATH. */
  readonly git?: boolean | string;
  readonly budget?: VerifyBudget;
  /** A monotonic clock in ms for the time budget. Default `performance.now`. */
  readonly monotonic?: () => number;
}

export interface ClaimVerification {
  readonly claim: Claim;
  readonly status: VerificationStatus;
  readonly reason: string;
}

export interface VerificationReport {
  readonly root: string;
  /** The project directory no longer exists: the hygiene report's orphaned project directory. */
  readonly orphaned: boolean;
  /** One per claim given, in the same order. */
  readonly results: readonly ClaimVerification[];
  /** Stopped by the AbortSignal; what was left is unverifiable. */
  readonly aborted: boolean;
  /** A budget (time, claims, tree, bytes) cut the run short somewhere. */
  readonly budgetExhausted: boolean;
}

export const DEFAULT_VERIFY_BUDGET: Required<VerifyBudget> = Object.freeze({
  timeMs: 10_000,
  maxEntries: 20_000,
  maxBytes: 64 * 1024 * 1024,
  maxFileBytes: 1024 * 1024,
  maxManifestBytes: 16 * 1024 * 1024,
  maxClaims: 500,
  gitTimeoutMs: 5_000,
  urlTimeoutMs: 5_000,
  urlConcurrency: 4,
});
