import { claimKey, distinctClaims, extractClaims } from '../memories/claims.js';
import { verifyClaims, type VerifyBudget } from '../memories/verify-claims.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { MemoryCheck } from './maintenance-plan.js';

export interface CheckOptions {
  /** Check URLs over the network (`engram maintain --network`). Default false. */
  network?: boolean;
  signal?: AbortSignal;
  /** Per project. Default: verify-claims' own (10 s, 20,000 entries…). */
  budget?: VerifyBudget;
}

/**
 * What each project memory claims (files, functions, branches, packages, URLs), checked against
 * its project's working tree: one run per project over the distinct claims of all its memories.
 * Global memories have no tree to check against. Never throws for one project.
 */
export async function checkMemories(memories: readonly MemoryRow[], options: CheckOptions = {}): Promise<Map<string, MemoryCheck>> {
  const checks = new Map<string, MemoryCheck>();
  const byProject = new Map<string, Array<{ memory: MemoryRow; claims: ReturnType<typeof extractClaims> }>>();
  for (const memory of memories) {
    if (memory.project === '' || memory.archived || memory.status === 'superseded') continue;
    const claims = extractClaims(memory.body);
    byProject.set(memory.project, [...(byProject.get(memory.project) ?? []), { memory, claims }]);
  }
  for (const [project, entries] of byProject) {
    if (options.signal?.aborted) break;
    const claims = distinctClaims(entries.flatMap((entry) => entry.claims));
    let report: Awaited<ReturnType<typeof verifyClaims>>;
    try {
      report = await verifyClaims(claims, { root: project, network: options.network ?? false, signal: options.signal, budget: options.budget });
    } catch {
      continue;
    }
    const verdicts = new Map(report.results.map((result) => [claimKey(result.claim), result.status]));
    for (const { memory, claims: own } of entries) {
      checks.set(memory.id, {
        claims: distinctClaims(own).map((claim) => ({ kind: claim.kind, value: claim.value.slice(0, 300), status: verdicts.get(claimKey(claim)) ?? 'unverifiable' })),
        orphaned: report.orphaned,
      });
    }
  }
  return checks;
}
