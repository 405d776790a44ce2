import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIM_KINDS, claimKey, distinctClaims, extractClaims, type Claim, type ClaimKind } from '../src/memories/claims.js';
import { repoRoot } from './support/temp-home.js';

interface LabelledCase {
  id: string;
  body: string;
  expected: Array<{ kind: ClaimKind; value: string; verifiable: boolean }>;
}

/** A labelled file: `=== id`, the body, `--- expect`, then `kind value [!unverifiable]` lines (`#`: a comment). */
function readLabelled(file: string): LabelledCase[] {
  const text = readFileSync(join(repoRoot, 'fixtures', 'claims', file), 'utf8');
  return text
    .split(/^=== /m)
    .slice(1)
    .map((chunk) => {
      const newline = chunk.indexOf('\n');
      const id = chunk.slice(0, newline).trim();
      const [body, expectations] = chunk.slice(newline + 1).split(/^--- expect\n/m) as [string, string];
      const expected = expectations
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => {
          const verifiable = !line.endsWith(' !unverifiable');
          const [kind, ...rest] = line.replace(/ !unverifiable$/, '').split(' ');
          if (!(CLAIM_KINDS as readonly string[]).includes(kind!)) throw new Error(`${id}: unknown kind in ${JSON.stringify(line)}`);
          return { kind: kind as ClaimKind, value: rest.join(' '), verifiable };
        });
      return { id, body: body.replace(/\n+$/, '\n'), expected };
    });
}

interface Figures {
  rows: Array<{ kind: ClaimKind; labelled: number; found: number; precision: number; recall: number }>;
  precision: number;
  recall: number;
  verifiabilityWrong: number;
  report: string;
}

/** Precision and recall per kind over distinct (body, kind, value) claims. */
function measure(name: string, cases: readonly LabelledCase[]): Figures {
  const counts = Object.fromEntries(CLAIM_KINDS.map((kind) => [kind, { tp: 0, fp: 0, fn: 0 }])) as Record<ClaimKind, { tp: number; fp: number; fn: number }>;
  const mistakes: string[] = [];
  let verifiabilityWrong = 0;
  for (const labelled of cases) {
    const found = new Map<string, Claim>();
    for (const claim of extractClaims(labelled.body)) found.set(`${claim.kind} ${claim.value}`, claim);
    const expected = new Map(labelled.expected.map((claim) => [`${claim.kind} ${claim.value}`, claim]));
    for (const [key, claim] of found) {
      if (expected.has(key)) {
        counts[claim.kind].tp++;
        if (expected.get(key)!.verifiable !== claim.verifiable) {
          verifiabilityWrong++;
          mistakes.push(`${labelled.id}: ${key} verifiable=${claim.verifiable} (${claim.reason ?? ''})`);
        }
      } else {
        counts[claim.kind].fp++;
        mistakes.push(`${labelled.id}: extra ${key}`);
      }
    }
    for (const [key, claim] of expected) {
      if (!found.has(key)) {
        counts[claim.kind].fn++;
        mistakes.push(`${labelled.id}: missed ${key}`);
      }
    }
  }
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  const rows = CLAIM_KINDS.map((kind) => {
    const { tp, fp, fn } = counts[kind];
    return { kind, labelled: tp + fn, found: tp + fp, precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn) };
  });
  const total = CLAIM_KINDS.reduce((sum, kind) => ({ tp: sum.tp + counts[kind].tp, fp: sum.fp + counts[kind].fp, fn: sum.fn + counts[kind].fn }), { tp: 0, fp: 0, fn: 0 });
  const line = (kind: string, labelled: number, found: number, precision: number, recall: number) =>
    `${kind.padEnd(8)}  ${String(labelled).padStart(8)}  ${String(found).padStart(5)}  ${precision.toFixed(3).padStart(9)}  ${recall.toFixed(3).padStart(6)}`;
  const precision = ratio(total.tp, total.tp + total.fp);
  const recall = ratio(total.tp, total.tp + total.fn);
  const report = [
    `${name}, ${cases.length} bodies:`,
    'kind      labelled  found  precision  recall',
    ...rows.map((row) => line(row.kind, row.labelled, row.found, row.precision, row.recall)),
    line('all', total.tp + total.fn, total.tp + total.fp, precision, recall),
    `verifiable flag wrong on ${verifiabilityWrong} of ${total.tp} claims found`,
    ...mistakes.map((mistake) => `  ${mistake}`),
  ].join('\n');
  return { rows, precision, recall, verifiabilityWrong, report };
}

const corpus = readLabelled('corpus.md');
const heldOut = readLabelled('held-out.md');

describe('the claims corpus', () => {
  it('has at least 40 hand-labelled bodies, and a held-out set', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(heldOut.length).toBeGreaterThanOrEqual(10);
    const ids = [...corpus, ...heldOut].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('precision and recall per kind', () => {
    const figures = measure('claims corpus', corpus);
    console.info(figures.report);
    // Precision first: a false claim ages a true memory.
    for (const row of figures.rows) expect(row.precision, `${row.kind} precision\n${figures.report}`).toBeGreaterThanOrEqual(0.9);
    expect(figures.precision).toBeGreaterThanOrEqual(0.95);
    for (const row of figures.rows) expect(row.recall, `${row.kind} recall\n${figures.report}`).toBeGreaterThanOrEqual(0.8);
    expect(figures.verifiabilityWrong).toBe(0);
  });

  it('on the held-out set, which the rules were not shaped by', () => {
    const figures = measure('claims held-out set', heldOut);
    console.info(figures.report);
    expect(figures.precision, figures.report).toBeGreaterThanOrEqual(0.85);
  });

  it('every claim’s span is where its value was written', () => {
    for (const labelled of [...corpus, ...heldOut]) {
      for (const claim of extractClaims(labelled.body)) {
        const written = labelled.body.slice(claim.span.start, claim.span.end);
        expect(written.startsWith(claim.value) || written.replace(/(?:\(.*\))$/, '') === claim.value, `${labelled.id}: ${claim.kind} ${claim.value} at ${JSON.stringify(written)}`).toBe(true);
      }
    }
  });
});

const claimsOf = (body: string) => extractClaims(body).map((claim) => `${claim.kind} ${claim.value}${claim.verifiable ? '' : ' !'}`);

describe('extractClaims', () => {
  it.each<[string, string, string[]]>([
    ['a path with a line number keeps the path', 'Broken at `src/a.ts:12:3` and src/b.ts#L40.', ['path src/a.ts', 'path src/b.ts']],
    ['no claims in versions, dates, ratios, e.g.', 'Use 1.2.3 (or v2.0.1) since 2024-01-02 or 01/02/2024; 3/4 of I/O, and/or e.g. this.', []],
    ['routes are not paths', 'POST /api/users then GET `/api/users/:id`.', []],
    ['known absolute roots are', 'Edit /etc/hosts and /usr/local/bin/node.', ['path /etc/hosts', 'path /usr/local/bin/node']],
    ['an unknown absolute root with a file extension is', 'Saved to /data/exports/report.csv.', ['path /data/exports/report.csv']],
    ['home paths', 'In ~/.zshrc and $HOME/.config/x.toml', ['path ~/.zshrc', 'path $HOME/.config/x.toml']],
    ['product names with .js are not files', 'Node.js, Vue.js and `Next.js` all work; `build.js` is a file.', ['path build.js']],
    ['a method on a standard receiver is unverifiable', '`JSON.parse()` and `fs.readFileSync`', ['symbol JSON.parse !', 'symbol fs.readFileSync !']],
    ['single lowercase words and ALL_CAPS are not claimed', '`redis`, `MAX_RETRIES`, `user_id`, `Bash`', []],
    ['a call of a snake_case function is', '`load_config(path)`', ['symbol load_config']],
    ['a domain is not a member', '`status.acme.io` and `example.com`', []],
    ['branch words either side', 'On branch `feat/a`; the `fix-b` branch; branches `c` and `d`.', ['branch feat/a', 'branch fix-b', 'branch c', 'branch d']],
    ['on `main` is not enough', 'Deploy from `main` after review.', []],
    ['an unquoted branch needs a mark', 'the release-2.1 branch, the main branch, a feature branch', ['branch release-2.1']],
    ['git commands', '`git push origin feat/x` then `git branch -D old` and `git checkout -b new/y main`', ['branch feat/x', 'branch new/y']],
    ['install commands strip versions and flags', '`npm i -D @types/node@20 zod@^3` and `pip install "requests[socks]>=2.31" -e .`', ['package @types/node', 'package zod', 'package requests']],
    ['global installs are unverifiable', '`yarn global add serve` and `cargo install ripgrep` and `go install golang.org/x/tools/gopls@latest`', ['package serve !', 'package ripgrep !', 'package golang.org/x/tools/gopls !']],
    ['system package managers are not project claims', '`brew install jq` and `apt-get install -y curl`', []],
    ['urls: local, example and placeholders are unverifiable', 'http://127.0.0.1:8080/x, https://foo.example.com/a and https://api.acme.io/{id}', ['url http://127.0.0.1:8080/x !', 'url https://foo.example.com/a !', 'url https://api.acme.io/{id} !']],
    ['a URL in a fence is still a URL; its paths are not claims', '```sh\ncurl https://api.acme.io/v1/health\ncat src/index.ts\nnpm install express\n```', ['url https://api.acme.io/v1/health', 'package express']],
    ['a fence without requirements is not read as one', '```\nhello world\nfoo\n```', []],
    ['requirements introduced by the text', 'requirements.txt:\n\n```\nrequests\nflask==3.0\n-r base.txt\n```', ['path requirements.txt', 'package requests', 'package flask']],
    ['Next.js route segments are real paths', 'The page is `app/[slug]/page.tsx`.', ['path app/[slug]/page.tsx']],
    ['underscores belong to the name; brackets the path opened stay', 'Edit pkg/__init__.py (and app/(auth)/login.tsx).', ['path pkg/__init__.py', 'path app/(auth)/login.tsx']],
    ['markdown links: relative targets are paths, anchors are not', 'See [the guide](docs/guide.md#setup), [top](#top) and ![x](img/a.png "t").', ['path docs/guide.md', 'path img/a.png']],
    ['an unclosed fence runs to the end', 'Before `src/a.ts`\n```\nsrc/b.ts `src/c.ts`', ['path src/a.ts']],
    ['double backticks', 'Use ``src/x`y.ts`` here', []],
    ['MIME types are not paths', 'Send `application/json` or text/html.', []],
    ['an e-mail address is not a path', 'Mail ops@acme.io or `ops@acme.io`.', []],
    ['temporary files are unverifiable', 'Wrote /tmp/out.json and `/var/tmp/cache/`.', ['path /tmp/out.json !', 'path /var/tmp/cache/ !']],
    ['dotfiles: known ones in prose; in code, any with a known extension', 'Copy .env.example to .env, not .foorc; `.mocharc.yml`, not `.then`.', ['path .env.example', 'path .env', 'path .mocharc.yml']],
  ])('%s', (_, body, expected) => {
    expect(claimsOf(body)).toEqual(expected);
  });

  it('reports each occurrence, and distinctClaims keeps the first of each', () => {
    const claims = extractClaims('`src/a.ts` then src/a.ts again, `npm i zod` and the `zod` package');
    expect(claims.map((claim) => `${claim.kind} ${claim.value} @${claim.span.start}`)).toEqual([
      'path src/a.ts @1',
      'path src/a.ts @16',
      'package zod @39',
      'package zod @53',
    ]);
    expect(distinctClaims(claims).map(claimKey)).toEqual(['path src/a.ts', 'package npm zod', 'package any zod']);
  });

  it('symbol terms: the member, and its class when the receiver is one', () => {
    const terms = (body: string) => extractClaims(body).map((claim) => (claim.kind === 'symbol' ? claim.terms : []));
    expect(terms('`InvoiceRenderer.renderPdf` `db.migrate()` `Parser::parse_expr` `UserService` `this.reset()`')).toEqual([
      ['InvoiceRenderer', 'renderPdf'],
      ['migrate'],
      ['Parser', 'parse_expr'],
      ['UserService'],
      ['reset'],
    ]);
  });

  it('never throws and stays fast on hostile input', () => {
    const requirement = `a==1${',==1'.repeat(40)} x`;
    const ladder = Array.from({ length: 2000 }, (_, i) => `x${'`'.repeat(i + 1)}`).join(' ');
    const hostile = [ladder, 'word `src/a.ts` and https://x.acme.io/a '.repeat(50_000),`\`${requirement}\``, `\`\`\`\n${requirement}\n\`\`\``, '`'.repeat(5000), '```\n'.repeat(2000), 'a/'.repeat(5000), 'https://' + 'x'.repeat(20000), '\u0000\uffff\ud800', '[x]('.repeat(3000)];
    for (const body of hostile) expect(() => extractClaims(body)).not.toThrow();
  });
});
