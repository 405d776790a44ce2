/**
 * What counts as a secret, for `redact.ts`: every rule, in the order they run. Each rule is a
 * global regex and a replacer that keeps the non-secret context (header name, URL user,
 * variable name, quotes, a program's flag) and puts a `[REDACTED:<kind>]` marker where the
 * secret was. The generic rules live here; families live beside them: vendor token shapes and
 * key blocks (redaction-token-formats.ts), passwords on command lines
 * (redaction-command-line.ts, program by program in redaction-programs.ts), credential-file
 * lines and login pairs (redaction-credential-lines.ts), other languages and English sentences
 * (redaction-natural-language.ts). Names and values are judged by redaction-names.ts,
 * redaction-values.ts and redaction-judge.ts.
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
 * A rule's `needs` names literals every match holds; a text without them skips the rule, and
 * a hook never compiles a pattern its text cannot match. Imports only its siblings: this is
 * bundled into hook processes whose budget is Node's own start time.
 */

import { awsSecretAfterKeyIdRule, keyBlockRule, tokenFormatRules } from './redaction-token-formats.js';
import { commandLineRule } from './redaction-command-line.js';
import { credentialLineRules } from './redaction-credential-lines.js';
import { judgeValue, literalIsSafe } from './redaction-judge.js';
import { MARKER_SOURCE, marker } from './redaction-marker.js';
import { classifyName, FOREIGN_SEGMENTS } from './redaction-names.js';
import { naturalLanguageRules } from './redaction-natural-language.js';
import {
  anyOf, ESC_QUOTED, GLUED_UNQUOTED, isMarker, notAfter, QUOTED, R, SECRETISH, secretish, secretishAnd, START, UNQUOTED, type Groups, type Rule,
} from './redaction-rule.js';
import {
  carriesNoSecret, isFilePath, isFunctionWord, isLetters, isNumber, isPassphraseWord, isPathOrRefs, isPublicKey, looksGenerated,
  splitQuotes,
} from './redaction-values.js';

export type { Groups, Rule } from './redaction-rule.js';
export { redactValueNamed } from './redaction-judge.js';

const AUTH_SCHEMES = new Set([
  'bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm', 'hoba', 'mutual', 'vapid', 'oauth',
  'jwt', 'apikey', 'api-key', 'key', 'ssws', 'sso', 'scram-sha-1', 'scram-sha-256', 'aws4-hmac-sha256',
]);

// Every name classifyName calls strong holds one of these.
const strongName = anyOf('key', 'tok', 'secret', 'pass', 'pwd', 'pw', 'cred', 'auth', 'sig', 'dsn', ...FOREIGN_SEGMENTS);

// Names whose values identify or describe rather than authenticate, when a variable's name says
// nothing of secrets: `GIT_SHA=d3be5c3…`, `IMAGE_DIGEST=sha256:…`.
const DESCRIBED = /(?:^|_)(?:SHA|HASH|DIGEST|COMMIT|REV|REVISION|CHECKSUM|ETAG|TAG|UUID|GUID|ID|VERSION|REF|BRANCH|REGION|ZONE|ARN|IMAGE|BUILD|RUN|JOB|TRACE|SPAN)$/;

export const RULES: Rule[] = [
  keyBlockRule,
  {
    // `scheme://user:password@host` for any scheme; the user stays, the password goes. The
    // password runs to the last `@` before the path, since people paste unencoded `@`s.
    name: 'url-credentials',
    pattern: new RegExp(R`:\/\/(?<user>[^\s:\/?#@"'<>\[\]]{0,256}):(?<pass>${MARKER_SOURCE}|[^\s\/?#"'<>]{0,256})@`, 'g'),
    replace: (g, match) =>
      g.pass === '' || carriesNoSecret(g.pass!) ? match : `://${g.user!}:${marker('url-credentials')}@`,
    needs: anyOf('://'),
  },
  {
    name: 'webhook-url',
    pattern: /(?<lead>hooks\.slack\.com\/(?:services|workflows|triggers)\/|discord(?:app)?\.com\/api\/webhooks\/)(?<cred>[\w\/-]+)/g,
    replace: (g) => g.lead! + marker(g.lead!.startsWith('hooks') ? 'slack-webhook' : 'discord-webhook'),
    needs: anyOf('hooks.slack.com', 'discord'),
  },
  ...tokenFormatRules,
  awsSecretAfterKeyIdRule,
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
    needs: anyOf('authori'),
  },
  {
    name: 'cookie-header',
    pattern: new RegExp(R`${START}(?<lead>(?:set-)?cookie\\?["']?[ \t]*:[ \t]*\\?["'${'`'}]?)(?<cred>${MARKER_SOURCE}|[^\r\n"'${'`'}\\]+)`, 'gi'),
    replace: (g, match) => (isMarker(g.cred!) || !g.cred!.includes('=') ? match : g.lead! + marker('cookie')),
    needs: anyOf('cookie'),
  },
  {
    // `Bearer <token>` / `Basic <base64>` outside an Authorization header.
    name: 'bearer-basic',
    pattern: new RegExp(R`${START}(?<lead>(?<scheme>bearer|basic)[ \t]+)(?<cred>[A-Za-z0-9\-._~+\/]{8,}=*)`, 'gi'),
    replace: (g, match) => (looksGenerated(g.cred!) ? g.lead! + marker(g.scheme!.toLowerCase()) : match),
    needs: anyOf('bearer', 'basic'),
  },
  {
    // `curl -u user:password`; `docker run -u 1000:1000` is a uid and gid.
    name: 'user-password-flag',
    pattern: new RegExp(R`${START}(?<lead>(?:-u|--user|-U|--proxy-user)(?:[ \t]+|=)\\?["']?(?<user>[\w.\-$\{\}]{1,128}):)(?<pass>${MARKER_SOURCE}|[^\s"'\\]+)`, 'g'),
    replace(g, match) {
      const pass = g.pass!;
      if (isMarker(pass) || carriesNoSecret(pass)) return match;
      if (/^\d+$/.test(g.user!) && /^\d+$/.test(pass)) return match;
      return g.lead! + marker('basic');
    },
    needs: anyOf('-u'),
  },
  commandLineRule,
  ...credentialLineRules,
  ...naturalLanguageRules,
  {
    // `password: correct horse battery staple`: a YAML value is the whole rest of its line, and a
    // passphrase is words. A sentence (`password: must be at least 8 characters`) has small words.
    name: 'yaml-passphrase',
    pattern: new RegExp(R`^(?<lead>[ \t]*(?:-[ \t]+)?(?<q>["']?)(?<name>[A-Za-z_][\w.-]{0,80})\k<q>[ \t]*:[ \t]+)(?<value>[^\s#"'{}\[\]|>&*!%@${'`'}][^\r\n]{0,400})$`, 'gm'),
    replace(g, match) {
      if (classifyName(g.name!) !== 'strong') return match;
      const value = g.value!.replace(/[ \t]+#.*$/, '').trimEnd();
      const words = value.split(/[ \t]+/);
      if (words.length < 2 || words.length > 8 || /[.?!:]$/.test(value)) return match;
      // Words, not code: `password: str = "…"` is a type and a default.
      if (words.some((w) => isFunctionWord(w) || !isPassphraseWord(w))) return match;
      return g.lead! + marker('assignment') + g.value!.slice(value.length);
    },
    needs: (lower) => (lower.includes(': ') || lower.includes(':\t')) && strongName(lower),
  },
  {
    // `storePassword "x"` (Gradle), `password 'x'` (Ruby, Groovy), `requirepass x` (redis.conf):
    // a secret-named setting and its value, one per line, with no `=` between.
    name: 'setting-line',
    pattern: new RegExp(R`^(?<lead>[ \t]*(?<name>[A-Za-z_][\w.-]{0,60})[ \t]+)(?<value>${MARKER_SOURCE}|"[^"\r\n]*"|'[^'\r\n]*'|[^\s"'${'`'}]+)[ \t]*;?[ \t]*$`, 'gm'),
    replace(g, match, offset, input) {
      const value = g.value!;
      if (classifyName(g.name!) !== 'strong' || (!/^["']/.test(value) && isLetters(value))) return match;
      return g.lead! + judgeValue({ value, input, end: offset + match.length, cls: 'strong', codeLike: true, tight: false }, 'assignment') + match.slice(g.lead!.length + value.length);
    },
    needs: strongName,
  },
  {
    // `.env` lines, `export X=…`, `X=… cmd`, `docker -e X=…`. A variable is a secret when its
    // name says so (`DB_PASSWORD`, `STRIPE_KEY`) or its value looks generated (`ACME_CONNECT=
    // Zq5Wn2Bv6Ck1`); `AWS_REGION=eu-west-1` and `NODE_ENV=production` stay. What stays under any
    // name is what cannot hold a secret: references and file paths.
    // A `;` or `&` glued inside the value (`PASSWORD=Xk9&mQz7vL2`) is part of it unless the next
    // `NAME=` follows, as `redaction-rule.ts`'s GLUED_UNQUOTED says for assignments.
    name: 'env',
    pattern: new RegExp(R`${notAfter(R`^\s;&|(${'`'}"'{,=`)}(?<lead>(?<name>[A-Z_][A-Z0-9_]+)=)(?<value>${MARKER_SOURCE}|"(?:[^"\\\r\n]|\\.)*"?|'[^'\r\n]*'?|(?![;&])(?:[^\s"'${'`'};&|()<>\\]|\\(?![nrt])|[;&](?=[^\s"'${'`'};&|()<>\\])(?![\w.-]{0,80}=))+)`, 'g'),
    replace(g, match, offset, input) {
      const value = g.value!;
      if (isMarker(value)) return match;
      const q = splitQuotes(value);
      const content = q === null ? value : q.content;
      if (carriesNoSecret(content) || isFilePath(content)) return match;
      const name = g.name!;
      const cls = classifyName(name);
      if (cls === 'none') {
        if (isNumber(content) || isPathOrRefs(content) || DESCRIBED.test(name) || !looksGenerated(content)) return match;
      } else if (literalIsSafe(content, cls)) return match;
      else if (q === null && isPublicKey(`${content}${input.slice(offset + match.length, offset + match.length + 16)}`)) return match;
      return g.lead! + (q === null ? marker('env') : q.open + marker('env') + q.close);
    },
    needs: anyOf('='),
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
        R`(?![=:>])(?<value>${MARKER_SOURCE}|${ESC_QUOTED}|${QUOTED}|${GLUED_UNQUOTED})`,
      'gi',
    ),
    replace(g, match, offset, input) {
      const name = (g.qname ?? g.name)!;
      const cls = classifyName(name);
      if (cls === 'none') return match;
      // The authorization-header rule owns these, scheme and all.
      if (/authori[sz]ation$/i.test(name)) return match;
      // `rg "token=" src`: the quote after `=` closes the one the name was opened with.
      const value = g.value!;
      if (g.name !== undefined && value !== '' && /["'`]/.test(value[0]!) && input.charAt(offset - 1) === value[0]) return match;
      const sep = g.sep!;
      const data = sep === '=';
      return g.lead! + judgeValue({ value, input, end: offset + match.length, cls, codeLike: !data, tight: sep === ':' }, 'assignment');
    },
    needs: secretish,
  },
  {
    // `<password>…</password>` in Maven settings, .NET configs, SOAP bodies.
    name: 'xml-element',
    pattern: new RegExp(R`<(?=[\w.:-]{0,60}?${SECRETISH})(?<name>[A-Za-z_][\w.:-]{0,60})>(?<value>[^<>\r\n]{1,4096})<\/\k<name>>`, 'gi'),
    replace(g, match) {
      const name = g.name!;
      return literalIsSafe(g.value!, classifyName(name)) ? match : `<${name}>${marker('assignment')}</${name}>`;
    },
    needs: secretishAnd('</'),
  },
  {
    // `--token abc`, `--password 'x'`: a secret-named flag followed by its value.
    name: 'cli-flag',
    pattern: new RegExp(
      R`(?<lead>--${notAfter(R`\w\]-`, '--')}(?=[\w-]{0,60}?${SECRETISH})(?<name>[A-Za-z][\w-]{0,60})[ \t]+)(?![-=])(?<value>${MARKER_SOURCE}|${QUOTED}|${UNQUOTED})`,
      'gi',
    ),
    replace: (g, match, offset, input) => flagValue(g, match, offset, input),
    needs: secretishAnd('--'),
  },
  {
    // `-storepass x` (keytool), `-Password x` (PowerShell): one dash, so only a name that can
    // mean nothing but a secret.
    name: 'cli-single-dash-flag',
    pattern: new RegExp(
      R`(?<lead>-${notAfter(R`\w\]-`, '-')}(?=[\w-]{0,60}?${SECRETISH})(?<name>[A-Za-z][\w-]{2,60})[ \t]+)(?![-=])(?<value>${MARKER_SOURCE}|${QUOTED}|${UNQUOTED})`,
      'gi',
    ),
    replace: (g, match, offset, input) => (classifyName(g.name!) === 'strong' ? flagValue(g, match, offset, input) : match),
    needs: secretishAnd('-'),
  },
];

function flagValue(g: Groups, match: string, offset: number, input: string): string {
  const cls = classifyName(g.name!);
  if (cls === 'none') return match;
  return g.lead! + judgeValue({ value: g.value!, input, end: offset + match.length, cls, codeLike: true, tight: false }, 'assignment');
}
