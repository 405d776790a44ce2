/** Symbol claims: identifiers, calls and members that name the project's code. */
import type { Span, SymbolClaim } from './claim-kinds.js';
import { CAMEL, CLAUDE_CODE_TOOLS, KEYWORDS, PASCAL, PASCAL_START, PLATFORM_GLOBALS, PLATFORM_RECEIVERS, PRODUCTS, SYMBOL_CHAIN, TLDS } from './claim-vocabulary.js';

export function symbolClaim(text: string, span: Span, called: boolean): SymbolClaim | undefined {
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
