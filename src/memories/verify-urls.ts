import type { UrlClaim, VerificationStatus } from './claims.js';
import type { FetchLike, VerifyBudget, VerifyOptions } from './verify-options.js';

type Verdict = { status: VerificationStatus; reason: string };

/** What a URL check needs of the run (verify-claims.ts): its settings, budget and clock. */
export interface UrlRun {
  readonly options: Pick<VerifyOptions, 'network' | 'fetch' | 'signal'>;
  readonly budget: Pick<Required<VerifyBudget>, 'urlConcurrency' | 'urlTimeoutMs'>;
  /** Why to stop now, if the run must. */
  stopped(): string | undefined;
  remainingMs(): number;
}

/**
 * The URL claims, checked over the network only when the user allowed it (`network`): HEAD, GET
 * when HEAD is refused, a few at a time, each within its timeout and the run's time.
 */
export async function verifyUrls(claims: readonly UrlClaim[], run: UrlRun): Promise<Array<[UrlClaim, Verdict]>> {
  const out = new Map<UrlClaim, Verdict>();
  const toFetch: UrlClaim[] = [];
  for (const claim of claims) {
    if (!claim.verifiable) out.set(claim, { status: 'unverifiable', reason: claim.reason ?? 'cannot be checked' });
    else if (run.options.network !== true) out.set(claim, { status: 'unverifiable', reason: 'network checks are off' });
    else toFetch.push(claim);
  }
  const fetchImpl = run.options.fetch ?? (globalThis.fetch as unknown as FetchLike | undefined);
  if (toFetch.length > 0 && !fetchImpl) for (const claim of toFetch.splice(0)) out.set(claim, { status: 'unverifiable', reason: 'no fetch available' });

  const answers = new Map<UrlClaim, { kind: 'http'; status: number } | { kind: 'network'; reason: string } | { kind: 'stopped'; reason: string }>();
  let next = 0;
  const worker = async () => {
    while (next < toFetch.length) {
      const claim = toFetch[next++]!;
      const stop = run.stopped();
      answers.set(claim, stop ? { kind: 'stopped', reason: stop } : await probe(run, claim.value, fetchImpl!));
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.budget.urlConcurrency, toFetch.length) }, worker));

  // When no URL answered at all, the likelier story is that this machine is offline.
  const anyAnswered = [...answers.values()].some((answer) => answer.kind === 'http');
  for (const claim of toFetch) {
    const answer = answers.get(claim)!;
    if (answer.kind === 'stopped') out.set(claim, { status: 'unverifiable', reason: answer.reason });
    else if (answer.kind === 'network') {
      out.set(claim, anyAnswered ? { status: 'missing', reason: `unreachable: ${answer.reason}` } : { status: 'unverifiable', reason: `unreachable (${answer.reason}), and no URL answered: the network may be down` });
    } else out.set(claim, httpVerdict(answer.status));
  }
  return claims.map((claim) => [claim, out.get(claim)!]);
}

async function probe(run: UrlRun, url: string, fetchImpl: FetchLike): Promise<{ kind: 'http'; status: number } | { kind: 'network'; reason: string } | { kind: 'stopped'; reason: string }> {
  const controller = new AbortController();
  const outer = run.options.signal;
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(), Math.max(1, Math.min(run.budget.urlTimeoutMs, run.remainingMs())));
  try {
    let response = await fetchImpl(url, { method: 'HEAD', signal: controller.signal, redirect: 'follow' });
    await response.body?.cancel().catch(() => undefined);
    if (response.status === 405 || response.status === 501) {
      response = await fetchImpl(url, { method: 'GET', signal: controller.signal, redirect: 'follow' });
      await response.body?.cancel().catch(() => undefined);
    }
    return { kind: 'http', status: response.status };
  } catch (err) {
    if (outer?.aborted) return { kind: 'stopped', reason: 'the run was aborted' };
    if (controller.signal.aborted) return { kind: 'network', reason: 'timed out' };
    const cause = (err as { cause?: { code?: string } }).cause;
    return { kind: 'network', reason: cause?.code ?? (err as Error).message ?? 'failed' };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

function httpVerdict(status: number): Verdict {
  if (status >= 200 && status < 400) return { status: 'ok', reason: `HTTP ${status}` };
  if (status === 401 || status === 403 || status === 407) return { status: 'ok', reason: `HTTP ${status}: there, behind a login` };
  if (status === 404 || status === 410) return { status: 'missing', reason: `HTTP ${status}` };
  return { status: 'unverifiable', reason: `HTTP ${status}: the server could not say` };
}
