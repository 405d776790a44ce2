/**
 * What counts as a secret, for `redact.ts`. Each rule is a global regex and a replacer that
 * keeps the non-secret context (header name, URL user, variable name, quotes) and puts a
 * `[REDACTED:<kind>]` marker where the secret was.
 *
 * Two properties hold every rule together:
 * - Idempotence: a marker is never a secret. Every value slot accepts a marker first and then
 *   leaves it alone, no match may begin right after a marker, and no kind word can start a
 *   token pattern (`sk-`, `ghp_`, `eyJ`…). redact.ts repeats passes until nothing changes for
 *   the rare text where one rule's replacement changes what an earlier rule sees.
 * - Linear time: hooks redact whatever the user pastes, so no pattern may backtrack
 *   quadratically, in the rules or in the helpers that judge a matched value (which can be a
 *   megabyte long). Unbounded repeats only appear where nothing after them can fail, every
 *   run that something must follow has a bound, and patterns that could start anywhere are
 *   gated by a lookbehind so they start only at a word's first character.
 *
 * Imports only its siblings: this is bundled into hook processes whose budget is Node's own
 * start time.
 */

import { MARKER_SOURCE, marker } from './redaction-marker.js';
import { classifyName, type NameClass } from './redaction-names.js';
import {
  carriesNoSecret, isCodeOrProse, isFilePath, isNumber, isPathOrRefs, isSecretVariable, looksGenerated, splitQuotes,
  TEMPLATE, UNION_FOLLOWS,
} from './redaction-values.js';

// ───────────────────────────── rules ─────────────────────────────

export interface Rule {
  /** Short name for documentation and tests. */
  name: string;
  /** A global regex; every rule uses named groups. */
  pattern: RegExp;
  /** Returns the replacement for one match: the match itself when it is not a secret. */
  replace(g: Groups, match: string, offset: number, input: string): string;
}
export type Groups = Record<string, string | undefined>;

const WHOLE_MARKER = new RegExp(`^${MARKER_SOURCE}$`);
const isMarker = (s: string): boolean => WHOLE_MARKER.test(s);
const R = String.raw;
// Where a match may begin: not right after one of `chars`, except when that character ends a
// `\n`, `\r` or `\t` escape, which counts as a line break (`printf 'A=1\nDB_PASSWORD=x'`,
// JSON pasted into a prompt). One nested lookbehind rather than an alternation, which would
// cost V8 its fast scan for the literal that follows (20× slower on plain text); placed after
// a literal that was just matched (`--`), it is given that literal as `before`.
const notAfter = (chars: string, before = ''): string => R`(?<![${chars}](?<!\\[nrt])${before})`;
// Not inside a word and not right after a marker, so that replacing a value never lets a later
// match begin where the original text did not allow one.
const START = notAfter(R`\w\]-`);

const QUOTED = R`[fFrRbBuU]{0,2}(?:"(?:[^"\\\r\n]|\\.)*"?|'(?:[^'\\\r\n]|\\.)*'?|${'`'}(?:[^${'`'}\\\r\n]|\\.)*${'`'}?)`;
const ESC_QUOTED = R`\\(?<eq>["'])(?:(?!\\\k<eq>)[^\r\n])*(?:\\\k<eq>)?`;
// An unquoted value ends at whitespace, quotes, brackets, `,;&` and at a `\n` escape.
const UNQUOTED = R`(?:\$\{\{[^{}\r\n]{0,200}\}\}|\$\{[^{}\s]{0,200}\}|[^\s"'${'`'},;&<>(){}\[\]\\]|\\(?![nrt]))+`;
// A name that may hold a secret contains one of these; the replacer decides with classifyName.
const SECRETISH = R`(?:key|tok|secret|pass|pwd|pw|cred|auth|sig)`;
const AUTH_SCHEMES = new Set([
  'bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm', 'hoba', 'mutual', 'vapid', 'oauth',
  'jwt', 'apikey', 'api-key', 'key', 'ssws', 'sso', 'scram-sha-1', 'scram-sha-256', 'aws4-hmac-sha256',
]);

interface Judged {
  value: string;
  input: string;
  end: number;
  cls: NameClass;
  /** `name: value`, `name = value`, `--name value`: may be code or a sentence. */
  codeLike: boolean;
  /** `name:value` with no space: as often a label (`npm run token:refresh`) as a credential. */
  tight: boolean;
}

/** The replacement text for an assignment's value: the value itself when it is no secret. */
function judgeValue(j: Judged, kind: string): string {
  const { value, cls } = j;
  if (isMarker(value)) return value;
  const q = splitQuotes(value);
  const after = j.input.slice(j.end, j.end + 16);
  if (q !== null) {
    if (literalIsSafe(q.content, cls) || (j.codeLike && q.close !== '' && UNION_FOLLOWS.test(after))) return value;
    return q.open + marker(kind) + q.close;
  }
  if (literalIsSafe(value, cls)) return value;
  if (isCodeOrProse(value, { next: after.charAt(0), restOfLine: after, codeLike: j.codeLike })) return value;
  if (j.tight && !/\d/.test(value) && !looksGenerated(value)) return value;
  return marker(kind);
}

/** Whether a literal held under a secret-like name is safe to keep. */
function literalIsSafe(content: string, cls: NameClass): boolean {
  if (cls === 'none' || carriesNoSecret(content)) return true;
  if (isSecretVariable(content)) return true;
  if (isFilePath(content)) return true;
  // A weak name (`key`, `auth`, `sig`) needs a value that looks generated, not a template.
  return cls === 'weak' && (!looksGenerated(content) || TEMPLATE.test(content));
}

/**
 * For a string stored under an object key (`{"password": "hunter2"}`): the whole string is
 * the value, so it goes unless the key is innocent or the value carries no secret.
 */
export function redactValueNamed(name: string, value: string): string {
  return literalIsSafe(value, classifyName(name)) ? value : marker('assignment');
}

/** Known credential formats, found anywhere. Kind, then the pattern. */
const TOKEN_FORMATS: Array<[kind: string, source: string]> = [
  ['jwt', R`eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*(?:\.[\w-]+){0,2}`],
  // OpenAI (`sk-`, `sk-proj-`, `sk-svcacct-`) and Anthropic (`sk-ant-api03-`); sorted out below.
  ['openai-key', R`sk-[\w-]{20,}`],
  ['stripe-key', R`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}`],
  ['github-token', R`gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,}`],
  ['gitlab-token', R`gl(?:pat|dt|rt|ptt|cbt|imt|oas|ft|soat|agent)-[\w-]{20,}`],
  ['slack-token', R`xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}`],
  ['aws-key', R`(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`],
  ['google-api-key', R`AIza[\w-]{30,}`],
  ['google-oauth', R`ya29\.[\w-]{20,}|GOCSPX-[\w-]{20,}`],
  ['npm-token', R`npm_[A-Za-z0-9]{30,}`],
  ['hf-token', R`hf_[A-Za-z0-9]{30,}`],
  ['sendgrid-key', R`SG\.[\w-]{16,}\.[\w-]{16,}`],
  ['pypi-token', R`pypi-AgE[\w-]{50,}`],
  ['digitalocean-token', R`do[opr]_v1_[a-f0-9]{64}`],
  ['shopify-token', R`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`],
];

export const RULES: Rule[] = [
  {
    // The whole block, BEGIN to END; with no END, to the end of the text, which may have been cut.
    name: 'private-key',
    pattern: /(?<pem>-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|$))/g,
    replace: () => marker('private-key'),
  },
  {
    // `scheme://user:password@host` for any scheme; the user stays, the password goes. The
    // password runs to the last `@` before the path, since people paste unencoded `@`s.
    name: 'url-credentials',
    pattern: new RegExp(R`:\/\/(?<user>[^\s:\/?#@"'<>\[\]]{0,256}):(?<pass>${MARKER_SOURCE}|[^\s\/?#"'<>]{0,256})@`, 'g'),
    replace: (g, match) =>
      g.pass === '' || carriesNoSecret(g.pass!) ? match : `://${g.user!}:${marker('url-credentials')}@`,
  },
  {
    name: 'webhook-url',
    pattern: /(?<lead>hooks\.slack\.com\/(?:services|workflows|triggers)\/|discord(?:app)?\.com\/api\/webhooks\/)(?<cred>[\w\/-]+)/g,
    replace: (g) => g.lead! + marker(g.lead!.startsWith('hooks') ? 'slack-webhook' : 'discord-webhook'),
  },
  {
    name: 'token-formats',
    pattern: new RegExp(R`${START}(?:${TOKEN_FORMATS.map(([, s], i) => `(?<t${i}>${s})`).join('|')})`, 'g'),
    replace(g, match) {
      const i = TOKEN_FORMATS.findIndex((_, k) => g[`t${k}`] !== undefined);
      const kind = TOKEN_FORMATS[i]![0];
      if (kind !== 'openai-key') return marker(kind);
      if (match.startsWith('sk-ant-')) return marker('anthropic-key');
      // `sk-button-primary-large` is a CSS class; generated keys have digits or capitals.
      return /[\dA-Z]/.test(match.slice(3)) ? marker(kind) : match;
    },
  },
  {
    // `Authorization: <scheme> <credentials>` in any quoting; the scheme stays readable.
    name: 'authorization-header',
    pattern: new RegExp(
      R`${START}(?<lead>(?:proxy-)?authori[sz]ation\\?["']?[ \t]*[:=][ \t]*\\?["'${'`'}]?[ \t]*)` +
        R`(?:(?<scheme>[A-Za-z][\w-]{0,30})[ \t]+(?<cred>${MARKER_SOURCE}|[\w-]+=(?:"[^"\r\n]{0,500}"|[^\s,"'${'`'}]*)(?:[ \t]*,[ \t]*[\w-]+=(?:"[^"\r\n]{0,500}"|[^\s,"'${'`'}]*))*|(?:\$\{\{[^}\r\n]{0,200}\}\}|[^\s"'${'`'},])+)` +
        R`|(?!(?:bearer|basic|token|digest|negotiate|ntlm)(?![\w-]))(?<bare>${MARKER_SOURCE}|(?:\$\{\{[^}\r\n]{0,200}\}\}|[^\s"'${'`'},])+))`,
      'gi',
    ),
    replace(g, match) {
      const cred = (g.cred ?? g.bare)!;
      if (isMarker(cred) || carriesNoSecret(cred)) return match;
      const scheme = g.scheme?.toLowerCase();
      const known = scheme !== undefined && AUTH_SCHEMES.has(scheme);
      // "Authorization: the user must log in" is a sentence; an unknown scheme needs a random credential.
      if (!known && !looksGenerated(cred)) return match;
      const kind = scheme === 'bearer' || scheme === 'basic' ? scheme : 'authorization';
      return g.lead! + (g.scheme === undefined ? '' : match.slice(g.lead!.length, match.length - cred.length)) + marker(kind);
    },
  },
  {
    name: 'cookie-header',
    pattern: new RegExp(R`${START}(?<lead>(?:set-)?cookie\\?["']?[ \t]*:[ \t]*\\?["'${'`'}]?)(?<cred>${MARKER_SOURCE}|[^\r\n"'${'`'}\\]+)`, 'gi'),
    replace: (g, match) => (isMarker(g.cred!) || !g.cred!.includes('=') ? match : g.lead! + marker('cookie')),
  },
  {
    // `Bearer <token>` / `Basic <base64>` outside an Authorization header.
    name: 'bearer-basic',
    pattern: new RegExp(R`${START}(?<lead>(?<scheme>bearer|basic)[ \t]+)(?<cred>[A-Za-z0-9\-._~+\/]{8,}=*)`, 'gi'),
    replace: (g, match) => (looksGenerated(g.cred!) ? g.lead! + marker(g.scheme!.toLowerCase()) : match),
  },
  {
    // `curl -u user:password`; `docker run -u 1000:1000` is a uid and gid.
    name: 'user-password-flag',
    pattern: new RegExp(R`${START}(?<lead>(?:-u|--user|-U|--proxy-user)(?:[ \t]+|=)\\?["']?(?<user>[^\s:"'@\\\[\]]{1,128}):)(?<pass>${MARKER_SOURCE}|[^\s"'\\]+)`, 'g'),
    replace(g, match) {
      const pass = g.pass!;
      if (isMarker(pass) || carriesNoSecret(pass)) return match;
      if (/^\d+$/.test(g.user!) && /^\d+$/.test(pass)) return match;
      return g.lead! + marker('basic');
    },
  },
  {
    // `.env` lines, `export X=…`, `X=… cmd`, `docker -e X=…`. DESIGN.md redacts *any*
    // UPPER_CASE=value, since a variable's name says little about what it holds (DATABASE_URL,
    // SENTRY_DSN, a vendor's own name). What stays is what cannot hold a secret: references and
    // file paths; and, under a name that does not itself say secret, numbers, booleans and
    // `$PATH:/usr/local/bin`-style paths. `NODE_ENV=production` goes too: a word list cannot
    // tell `production` from a password such as `dragon`.
    name: 'env',
    pattern: new RegExp(R`${notAfter(R`^\s;&|(${'`'}"'{,=`)}(?<lead>(?<name>[A-Z_][A-Z0-9_]+)=)(?<value>${MARKER_SOURCE}|"(?:[^"\\\r\n]|\\.)*"?|'[^'\r\n]*'?|(?:[^\s"'${'`'};&|()<>\\]|\\(?![nrt]))+)`, 'g'),
    replace(g, match) {
      const value = g.value!;
      if (isMarker(value)) return match;
      const q = splitQuotes(value);
      const content = q === null ? value : q.content;
      if (carriesNoSecret(content)) return match;
      if (isFilePath(content)) return match;
      if (classifyName(g.name!) === 'none' && (isNumber(content) || isPathOrRefs(content))) return match;
      return g.lead! + (q === null ? marker('env') : q.open + marker('env') + q.close);
    },
  },
  {
    // `name = value`, `name: value`, `"name": "value"`, `name := value`, `--name=value`, with
    // an optional type annotation (`password: str = "…"`).
    name: 'assignment',
    pattern: new RegExp(
      R`${notAfter(R`\w.\/\\\]-`)}(?=(?:\\?["'])?-{0,2}[$@]?[\w.-]{0,81}?${SECRETISH})` +
        R`(?<lead>(?:(?<q>\\?["'])(?<qname>[$@]?[A-Za-z_][\w.-]{0,80})\k<q>\]?|(?<name>-{0,2}[$@]?[A-Za-z_][\w.-]{0,80}))\*{0,2}` +
        R`(?:[ \t]{0,4}:[ \t]{0,4}[A-Za-z_][\w.]{0,40}(?:<[^<>=\r\n]{0,80}>|\[[^\[\]=\r\n]{0,60}\])?(?:\[\])?(?:[ \t]{0,4}\|[ \t]{0,4}[A-Za-z_][\w.]{0,40}(?:\[\])?){0,4}(?=[ \t]{0,8}=[^=>]))?` +
        R`(?<sep>[ \t]{0,8}(?::=|=>|\?=|=|:)\*{0,2}[ \t]{0,8}))` +
        R`(?![=:>])(?<value>${MARKER_SOURCE}|${ESC_QUOTED}|${QUOTED}|${UNQUOTED})`,
      'gi',
    ),
    replace(g, match, offset, input) {
      const name = (g.qname ?? g.name)!;
      const cls = classifyName(name);
      if (cls === 'none') return match;
      // The authorization-header rule owns these, scheme and all.
      if (/authori[sz]ation$/i.test(name)) return match;
      const sep = g.sep!;
      const data = sep === '=';
      const value = judgeValue(
        { value: g.value!, input, end: offset + match.length, cls, codeLike: !data, tight: sep === ':' },
        'assignment',
      );
      return g.lead! + value;
    },
  },
  {
    // `<password>…</password>` in Maven settings, .NET configs, SOAP bodies.
    name: 'xml-element',
    pattern: new RegExp(R`<(?=[\w.:-]{0,60}?${SECRETISH})(?<name>[A-Za-z_][\w.:-]{0,60})>(?<value>[^<>\r\n]{1,4096})<\/\k<name>>`, 'gi'),
    replace(g, match) {
      const name = g.name!;
      return literalIsSafe(g.value!, classifyName(name)) ? match : `<${name}>${marker('assignment')}</${name}>`;
    },
  },
  {
    // `--token abc`, `--password 'x'`: a secret-named flag followed by its value.
    name: 'cli-flag',
    pattern: new RegExp(
      R`(?<lead>--${notAfter(R`\w\]-`, '--')}(?=[\w-]{0,60}?${SECRETISH})(?<name>[A-Za-z][\w-]{0,60})[ \t]+)(?![-=])(?<value>${MARKER_SOURCE}|${QUOTED}|${UNQUOTED})`,
      'gi',
    ),
    replace(g, match, offset, input) {
      const cls = classifyName(g.name!);
      if (cls === 'none') return match;
      const value = judgeValue(
        { value: g.value!, input, end: offset + match.length, cls, codeLike: true, tight: false },
        'assignment',
      );
      return g.lead! + value;
    },
  },
];
