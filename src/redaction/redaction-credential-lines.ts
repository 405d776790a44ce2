/**
 * Credentials written the way credential files and login calls write them, where no name says
 * "password": a .netrc line, a .pgpass line, `user:pass@host` without a scheme, a token as a
 * URL's user, `auth=("u", "p")`, a password piped into `sudo -S` or `chpasswd`. Bundled into
 * hooks.
 */
import { MARKER_SOURCE, marker } from './redaction-marker.js';
import { anyOf, isMarker, notAfter, QUOTED, R, UNQUOTED, type Rule } from './redaction-rule.js';
import { carriesNoSecret, looksGenerated, splitQuotes } from './redaction-values.js';

/** The value with its secret part replaced, quotes kept; unchanged when it holds no secret. */
function redactLiteral(value: string, kind: string): string {
  if (isMarker(value)) return value;
  const q = splitQuotes(value);
  const content = q === null ? value : q.content;
  if (carriesNoSecret(content)) return value;
  return q === null ? marker(kind) : q.open + marker(kind) + q.close;
}

// A host as it follows `@`: a name with a dot, an IPv4 address, or localhost.
const HOST = R`(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+)`;
// Before `:x@host`, words that make it an address (`mailto:bob@x.io`, `From:bob@x.io`), not a login.
const NOT_A_USER = new Set(['mailto', 'from', 'to', 'cc', 'bcc', 'reply-to', 'sender', 'email', 'e-mail', 'mail', 'contact', 'author', 'maintainer', 'by', 'via', 'at', 'sip', 'sips', 'tel', 'xmpp', 'im', 'user', 'login', 'username', 'git', 'ssh', 'see', 'cc']);

export const credentialLineRules: Rule[] = [
  {
    // `https://<token>@host`: a generated user is a token (GitHub, GitLab, Bitbucket accept it).
    name: 'url-token-user',
    pattern: /:\/\/(?<user>[A-Za-z0-9_.~%-]{16,256})@(?=[\w-])/g,
    replace: (g, match) => (looksGenerated(g.user!) ? `://${marker('url-credentials')}@` : match),
    needs: anyOf('://'),
  },
  {
    // `admin:S3cret@10.0.0.5`, `impacket-psexec corp/admin:pw@dc01.corp.local`: a URL's login
    // without its scheme. The host must look like one, so `node:20@sha256:…` is no login; the
    // password runs to the last `@` before it.
    name: 'bare-user-password',
    pattern: new RegExp(
      R`(?<![\w.:@%+\-\\\[])(?<!:\/\/)(?<lead>(?<user>[A-Za-z0-9_][\w.+\-]{0,63}):)(?<pass>${MARKER_SOURCE}|[^\s:\/"'${'`'}<>\\\[\]]{1,256})@(?=${HOST})`,
      'g',
    ),
    replace(g, match) {
      const pass = g.pass!;
      if (isMarker(pass) || carriesNoSecret(pass) || NOT_A_USER.has(g.user!.toLowerCase())) return match;
      return `${g.lead!}${marker('password')}@`;
    },
    needs: anyOf('@'),
  },
  {
    // A .netrc entry: `machine h login u password p`, on one line or several.
    name: 'netrc',
    pattern: new RegExp(
      R`(?<lead>(?<![\w-])(?:machine[ \t]+[^\s]{1,256}|default)\s{1,40}login[ \t]+[^\s]{1,256}\s{1,40}password[ \t]+)(?<pass>${MARKER_SOURCE}|[^\s]+)`,
      'g',
    ),
    replace: (g, match) => (isMarker(g.pass!) || carriesNoSecret(g.pass!) ? match : g.lead! + marker('password')),
    needs: anyOf('machine'),
  },
  {
    // A .pgpass line, `host:port:database:user:password`, wherever it is written.
    name: 'pgpass',
    pattern: new RegExp(
      R`(?<![^\s"'=>])(?<lead>(?:\*|${HOST}):(?:\d{2,5}|\*):[^\s:"']{1,128}:[^\s:"']{1,128}:)(?<pass>${MARKER_SOURCE}|[^\s"']+)`,
      'g',
    ),
    replace: (g, match) => (isMarker(g.pass!) || carriesNoSecret(g.pass!) ? match : g.lead! + marker('password')),
    needs: anyOf(':'),
  },
  {
    // `auth=("user", "pass")` (requests, httpx), `HTTPBasicAuth("u", "p")`, `server.login("u", "p")`,
    // `NetworkCredential("u", "p")`: the second literal of a login pair.
    name: 'login-pair',
    pattern: new RegExp(
      R`(?<lead>(?:(?<![\w.])(?:auth|basic_auth|http_auth|proxy_auth|httpauth)[ \t]*=[ \t]*[(\[]|(?:HTTPBasicAuth|HTTPDigestAuth|HTTPProxyAuth|BasicAuth|DigestAuth|NetworkCredential|PSCredential|UsernamePasswordCredentials|\.login)[ \t]*\()` +
        R`[ \t]*(?:[\w]{1,20}=)?(?:"[^"\r\n]{0,256}"|'[^'\r\n]{0,256}'|[\w.\[\]'"]{1,80})[ \t]*,[ \t]*(?:[\w]{1,20}=)?)(?<value>${MARKER_SOURCE}|"[^"\r\n]{0,256}"|'[^'\r\n]{0,256}')`,
      'g',
    ),
    replace: (g) => g.lead! + redactLiteral(g.value!, 'password'),
    needs: anyOf('auth', 'login', 'credential'),
  },
  {
    // `echo "pw" | sudo -S …`, `echo pw | passwd --stdin u`, `echo "u:pw" | chpasswd`,
    // `echo pw | docker login -u u --password-stdin`: the echoed text is the secret.
    name: 'piped-secret',
    pattern: new RegExp(
      R`(?<lead>${notAfter(R`\w.\-`)}(?:echo|printf)(?:[ \t]+-[neE]{1,3})*[ \t]+)(?<value>${MARKER_SOURCE}|${QUOTED}|${UNQUOTED})` +
        R`(?=(?:\\n)?["']?[ \t]*\|[ \t]*(?:sudo[ \t]+(?:-\w+[ \t]+){0,3})?(?<to>chpasswd|sudo[ \t]+(?:-\w+[ \t]+){0,3}?-S|passwd[ \t]+--stdin|[\w.\/-]{0,40}(?:docker|podman|nerdctl|helm|oras)[ \t]+(?:registry[ \t]+)?login[^\r\n|]{0,200}--password-stdin))`,
      'g',
    ),
    replace(g) {
      const value = g.value!;
      if (g.to !== 'chpasswd') return g.lead! + redactLiteral(value, 'password');
      // `user:password`: the user stays.
      const colon = value.indexOf(':');
      if (colon < 0 || isMarker(value)) return g.lead! + value;
      const rest = value.slice(colon + 1);
      const q = /["']$/.exec(rest)?.[0] ?? '';
      const pass = rest.slice(0, rest.length - q.length);
      return pass === '' || isMarker(pass) || carriesNoSecret(pass) ? g.lead! + value : g.lead! + value.slice(0, colon + 1) + marker('password') + q;
    },
    needs: anyOf('|'),
  },
  {
    // `sudo -S <<< "pw" cmd`, `passwd --stdin deploy <<< pw`: a here-string read as a password.
    name: 'here-string-secret',
    pattern: new RegExp(
      R`(?<lead>(?:\bsudo[ \t]+(?:-\w+[ \t]+){0,3}?-S|\bpasswd[ \t]+--stdin(?:[ \t]+[\w.-]{1,64})?|--password-stdin)[ \t]+(?:-\w+[ \t]+){0,3}<<<[ \t]*)(?<value>${MARKER_SOURCE}|${QUOTED}|${UNQUOTED})`,
      'g',
    ),
    replace: (g) => g.lead! + redactLiteral(g.value!, 'password'),
    needs: anyOf('<<<'),
  },
  {
    // `chpasswd <<< "user:pw"`, and a here-document's first line after `chpasswd <<EOF`.
    name: 'chpasswd-input',
    pattern: new RegExp(R`(?<lead>chpasswd[ \t]*(?:<<<[ \t]*|<<-?[ \t]*["']?\w{1,20}["']?[ \t]*\r?\n)["']?[\w.-]{1,64}:)(?<pass>${MARKER_SOURCE}|[^\s"']+)`, 'g'),
    replace: (g, match) => (isMarker(g.pass!) || carriesNoSecret(g.pass!) ? match : g.lead! + marker('password')),
    needs: anyOf('chpasswd'),
  },
];
