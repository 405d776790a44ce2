/**
 * Judges values for the redaction rules: whether what stands next to a secret-like name is a
 * secret, or a reference, a path, code or prose. Every test here is linear in the value, which
 * can be a megabyte long. Zero imports but its sibling: bundled into hook processes.
 */
import { MARKER_SOURCE } from './redaction-marker.js';
import { nameSegments } from './redaction-names.js';
// Things that stand in for a value without being one: markers, shell and template references,
// format placeholders, `<your-token>`.
const PLACEHOLDER = new RegExp(
  [
    MARKER_SOURCE,
    String.raw`\$\{\{[^}]{0,200}\}\}`,
    String.raw`\$\{[^{}]{0,200}\}`,
    String.raw`\$\([^()]{0,200}\)`,
    // `$ecretP4ss` in single quotes is a password, not a reference: only one-case names count.
    // PowerShell's environment: `$env:ADMIN_PASSWORD`.
    String.raw`\$env:[A-Za-z_]\w*`,
    String.raw`\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)(?![A-Za-z0-9])`,
    // SQL's positional parameters (`password_hash = $1`) and format slots (`{0}`, `%s`).
    String.raw`\$\d{1,3}(?!\d)`,
    String.raw`\{\d{1,2}\}`,
    String.raw`%[sdifr](?![A-Za-z0-9])`,
    String.raw`\{\{[^}]{0,200}\}\}`,
    String.raw`%[A-Za-z_]\w{0,100}%`,
    String.raw`%\(\w{1,100}\)[sdr]`,
    String.raw`\{[A-Za-z_][\w.]{0,100}\}`,
    String.raw`<[A-Za-z_][\w .-]{0,100}>`,
    String.raw`\b(?:[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|TOKEN)\b`,
  ].join('|'),
  // Not case-insensitive: that would make `$ecretP4ss` a one-case reference.
  'g',
);
// Words that are settings, types or literals, never credentials.
const SAFE_WORDS = new Set([
  'null', 'undefined', 'none', 'nil', 'true', 'false', 'yes', 'no', 'on', 'off', 'string', 'str',
  'number', 'int', 'integer', 'boolean', 'bool', 'bytes', 'any', 'unknown', 'never', 'object',
  'void', 'symbol', 'bigint', 'buffer', 'optional', 'secretstr', 'required', 'default', 'include',
  'omit', 'same-origin', 'bearer', 'basic', 'digest', 'oauth', 'oauth2', 'oidc', 'jwt', 'saml',
  'header', 'query', 'cookie', 'session', 'hidden', 'masked', 'sensitive', 'redacted', 'env',
  // Placeholders in documentation: `*password*=value`, `"api_key": "example"`.
  'value', 'example', 'placeholder',
  // What an error or a form says about a credential (`invalid token: expired`), not one.
  'expired', 'invalid', 'missing', 'revoked', 'malformed', 'empty', 'unset', 'denied', 'rejected',
  'incorrect', 'wrong', 'mismatch', 'valid', 'verified', 'unverified', 'unauthorized', 'forbidden',
  'weak', 'strong', 'ok', 'set', 'changed', 'updated', 'rotated', 'reset', 'present', 'absent',
  'provided', 'expiring', 'refreshed', 'invalidated', 'unavailable', 'enabled', 'disabled', 'not_set',
  'notset', 'n/a', 'tbd',
]);
const MASK = /^(?:\*+|x{3,}|X{3,}|\.{3,}|…|•+)$/;
// A resource name (`secret_arn: arn:aws:secretsmanager:…:secret:prod/db-AbCdEf`) names where a
// secret is kept, never the secret.
const ARN = /^arn:aws[\w-]*:[\w-]*:[\w-]*:\d*:/;
// OpenSSL's and others' references to where a password is: `env:DB_PW`, `file:./pw.txt`.
const SOURCE_REF = /^(?:env|file|fd):[\w.\/~-]+$/;
// Already dealt with: `user%[REDACTED:password]`, `pass:[REDACTED:password]`.
const LABELLED_MARKER = new RegExp(String.raw`^[^\s\[\]]{0,64}[:%,/=]${MARKER_SOURCE}$`);
const NUMBER = /^[-+]?\d+(?:\.\d+)?$/;
const REF = String.raw`\$(?:\{[^{}]*\}|\([^()]*\)|[A-Za-z_]\w*)`;
const PATH_PART = new RegExp(String.raw`^(?:(?:${REF}|~|\.{1,2})(?:[\\/][\w.@+~-]*)*|(?:[\\/][\w.@+~-]*)+)$`);
const IDENT = /^[A-Za-z_$][\w$]*$/;
const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)+$/;
// A keyword that starts an expression: `token = await fetchToken()`, `key = new Key(…)`.
const EXPRESSION_KEYWORD = new Set(['await', 'new', 'yield', 'typeof', 'async', 'function', 'lambda', 'require', 'import', 'not', 'fn', 'func', 'match', 'try', 'cast', 'sizeof', 'static', 'const', 'let', 'var', 'mut', 'ref', 'move']);
// Letters of the scripts that write words apart (Latin, Greek, Cyrillic), as ranges: `\p{L}`
// would load Unicode tables into every hook process.
const LETTER = String.raw`A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF`;
const PLAIN_WORD = new RegExp(`^[${LETTER}]+(?:['’-][${LETTER}]+)*$`);
const LETTERS = new RegExp(`^[${LETTER}]+$`);
const WORD_FOLLOWS = new RegExp(`^[ \t]+[${LETTER}]`);
const PASSPHRASE_WORD = new RegExp(`^[${LETTER}0-9][${LETTER}0-9'’!-]*$`);
/** One word of letters: `sunshine`, `Passwort`, `пароль`. */
export const isLetters = (value: string): boolean => LETTERS.test(value);
/** Whether text (the rest of a line) goes on with a word after spaces. */
export const wordFollows = (text: string): boolean => WORD_FOLLOWS.test(text);
/** A word a passphrase could hold: letters and digits, an apostrophe, a dash. */
export const isPassphraseWord = (value: string): boolean => PASSPHRASE_WORD.test(value);
// `ConvertTo-SecureString`, `Get-Content`: a PowerShell command, code rather than a value.
const CMDLET = /^[A-Z][a-zA-Z]+-[A-Z][A-Za-z]+$/;
// `STENCIL_PASS: 0x0B95;`, `secret: 42`: too short to be worth guessing, and too common in code.
const SHORT_NUMBER = /^(?:[-+]?\d{1,4}(?:\.\d+)?|0x[0-9a-fA-F]{1,4})$/;
// `type K = A | B`, `x: Foo | null`: a type union, not a value.
export const UNION_FOLLOWS = /^[ \t]*\|(?!\|)/;

/** A value that holds nothing secret: empty, a marker, a reference, a literal or a mask. */
export function carriesNoSecret(value: string): boolean {
  if (!/[A-Za-z0-9]/.test(value)) return true;
  if (SAFE_WORDS.has(value.toLowerCase()) || MASK.test(value) || SHORT_NUMBER.test(value)) return true;
  if (ARN.test(value) || SOURCE_REF.test(value) || LABELLED_MARKER.test(value)) return true;
  if (isPlainUrl(value)) return true;
  return !/[A-Za-z0-9]/.test(value.replace(PLACEHOLDER, ''));
}

// `f"user:{user_id}"`, `"${prefix}-x"`: built from references, not a literal secret.
export const TEMPLATE = /\$\{[^{}]{0,200}\}|\$\([^()]{0,200}\)|\{\{[^}]{0,200}\}\}|%\(\w{1,100}\)[sdr]|\{[A-Za-z_][\w.]{0,100}\}/;
// `~/.ssh/id_rsa`, `./certs/dev.pem`, `/etc/ssl/private/server.key`. Base64 may start with a
// slash but never has a dot, so an absolute path needs a file extension to count.
const FILE_PATH = /^(?:(?:~|\.{1,2})\/\S*|\/(?:[\w@+-][\w.@+-]*\/)*[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,8})$/;
export const isFilePath = (value: string): boolean => FILE_PATH.test(value);

// A URL with no login, no query and nothing random in its path (`proxy_pass http://127.0.0.1:8080`):
// where a secret lives or is sent, not the secret.
const PLAIN_URL = /^[a-z][a-z0-9+.-]*:\/\/[^\s/@?#]+(\/[^\s?#@]*)?;?$/i;
function isPlainUrl(value: string): boolean {
  const m = PLAIN_URL.exec(value);
  return m !== null && (m[1] ?? '').split('/').every((part) => !looksGenerated(part));
}

/** `PATH=$PATH:/usr/local/bin`, `./bin`, `~/x`: references and paths joined by `:`. */
export function isPathOrRefs(value: string): boolean {
  return value.split(':').every((part) => part === '' || PATH_PART.test(part));
}

export const isNumber = (value: string): boolean => NUMBER.test(value);

/**
 * Generated-looking: one run of token characters, long, and mixing classes the way generated
 * credentials do (`dXNlcjpwYXNz`, `4d7f0c9e2b1a48e6`) and words, identifiers and structured
 * keys do not (`JavaScript`, `getElementById`, `user:42:profile`). Used where the name alone
 * is weak evidence.
 */
export function looksGenerated(text: string): boolean {
  // Percent-encoded base64 (an Azure SAS `sig=…%2B…%3D`) is generated too.
  const value = text.includes('%') ? text.replace(/%[0-9A-Fa-f]{2}/g, '+') : text;
  if (value.length < 12 || !/^[\w+/=.~-]+$/.test(value)) return false;
  if (isWordPath(value)) return false;
  if (/\d/.test(value) && /[A-Za-z]/.test(value)) return true;
  if (/[+=]/.test(value)) return true;
  // Two capitals in a row after a small letter: base64 does that, camelCase does not.
  const lower = value.search(/[a-z]/);
  return lower >= 0 && /[A-Z]{2}/.test(value.slice(lower + 1));
}

// A piece of a dotted, dashed or underscored name: `settings`, `page2`, `v1`, `eu`, `2024`.
const WORDISH = /^(?:[a-z]+\d{0,3}|[A-Z][a-z]+\d{0,3}|[A-Z]{1,6}\d{0,3}|\d+)?$/;

/** `settings.page2.title`, `eu-west-1`, `--max-old-space-size=4096`: words, not randomness. */
function isWordPath(value: string): boolean {
  return value.split(/[._\-/:=]/).every((part) => WORDISH.test(part));
}

/** An SSH public key line (`ssh-ed25519 AAAA… alice@laptop`), which is meant to be shared. */
export function isPublicKey(value: string): boolean {
  return PUBLIC_KEY.test(value);
}
const PUBLIC_KEY = /^(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+AAAA[A-Za-z0-9+/]{8}/;

// camelCase, snake_case or SCREAMING_CASE, the way variables are written and passwords are not.
const VARIABLE_STYLE = /^[$:@]?(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*|[a-z][a-z0-9]*(?:_[a-z0-9]+)*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)$/;
const SECRET_WORD = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'key', 'apikey', 'auth', 'credentials', 'creds']);

/** `api_key: "YOUR_API_KEY"`, `self.token = token`, `{ apiKey: apiKey }`: a variable, not a value. */
export function isSecretVariable(value: string): boolean {
  return value.length <= 100 && VARIABLE_STYLE.test(value) && nameSegments(value).some((seg) => SECRET_WORD.has(seg));
}

export interface ValueContext {
  /** The character right after the value, '' at the end of the text. */
  next: string;
  /** The rest of the line after the value. */
  restOfLine: string;
  /** `name = value`, `name: value`: source code, YAML or prose rather than `name=value` data. */
  codeLike: boolean;
}

/**
 * Whether an unquoted value next to a secret-like name is code or prose rather than a secret:
 * `getToken()`, `process.env.API_KEY`, `os.environ["X"]`, `{ token: tok, … }`, `token: string`,
 * `self.token = token`, or "the token: it expires" in a sentence.
 */
export function isCodeOrProse(value: string, ctx: ValueContext): boolean {
  if (MEMBER_CHAIN.test(value)) return true;
  if (ctx.codeLike && CMDLET.test(value)) return true;
  if (ctx.codeLike && EXPRESSION_KEYWORD.has(value) && /^[ \t]/.test(ctx.next)) return true;
  if (IDENT.test(value)) {
    if (isSecretVariable(value)) return true;
    if (ctx.next === '(' || ctx.next === '[') return true;
    if (ctx.codeLike && (/^[;,)}<>]/.test(ctx.next) || UNION_FOLLOWS.test(ctx.restOfLine))) return true;
  }
  // A plain word followed by more words on the line is a sentence: a YAML value would have
  // been the whole rest of the line.
  return ctx.codeLike && PLAIN_WORD.test(value) && wordFollows(ctx.restOfLine);
}

interface Quoted {
  open: string;
  content: string;
  close: string;
}

/** Splits `f"…"`, `'…'`, `` `…` `` and `\"…\"` into quotes and content; null when unquoted. */
export function splitQuotes(value: string): Quoted | null {
  const m = /^([fFrRbBuU]{0,2}\\?["'`])/.exec(value);
  if (m === null) return null;
  const open = m[1]!;
  const quote = open.slice(open.search(/\\?["'`]$/));
  const close = value.length > open.length && value.endsWith(quote) ? quote : '';
  return { open, content: value.slice(open.length, value.length - close.length), close };
}

// Words that hold a sentence together: articles, pronouns, prepositions, auxiliaries. A
// passphrase of random words (`correct horse battery staple`) has none.
const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', 'is', 'are', 'was', 'were', 'be',
  'been', 'being', 'am', 'do', 'does', 'did', 'has', 'have', 'had', 'will', 'would', 'should',
  'could', 'can', 'may', 'might', 'must', 'shall', 'not', 'no', 'and', 'or', 'but', 'if', 'then',
  'so', 'to', 'of', 'in', 'on', 'at', 'by', 'for', 'with', 'from', 'into', 'onto', 'as', 'than',
  'too', 'very', 'also', 'just', 'only', 'still', 'now', 'here', 'there', 'where', 'when', 'what',
  'which', 'who', 'how', 'why', 'my', 'your', 'our', 'their', 'his', 'her', 'you', 'we', 'they',
  'he', 'she', 'i', 'me', 'us', 'them', 'some', 'any', 'all', 'each', 'every', 'about', 'like',
  'via', 'through', 'without', 'within', 'after', 'before', 'until', 'while', 'because', 'since',
  'least', 'most', 'more', 'less', 'use', 'see',
]);
// What one says about a flag or a password rather than a password: "the -p flag", "the
// password is stored", "the token is optional".
const DESCRIPTIVE_WORDS = new Set([
  'flag', 'flags', 'option', 'options', 'argument', 'arguments', 'parameter', 'switch', 'value',
  'password', 'passwords', 'token', 'secret', 'instead', 'again', 'later', 'first', 'please',
  'stored', 'saved', 'hashed', 'encrypted', 'encoded', 'hidden', 'shown', 'printed', 'logged',
  'visible', 'needed', 'used', 'sent', 'given', 'passed', 'read', 'written', 'generated', 'case',
  'sensitive', 'insensitive', 'long', 'short', 'same', 'different', 'unchanged', 'blank', 'nothing',
  'something', 'correct', 'right', 'fine', 'good', 'bad', 'secure', 'insecure', 'safe', 'unsafe',
  'deprecated', 'obsolete', 'mandatory', 'whatever', 'field', 'form', 'page', 'box', 'input',
  'prompt', 'manager', 'policy', 'change', 'recovery', 'hint', 'rules', 'requirements', 'length',
]);

export const isFunctionWord = (word: string): boolean => FUNCTION_WORDS.has(word.toLowerCase());

/** A word that belongs to a sentence (`the -p flag`, `the password is stored`), not a secret. */
export function isProseWord(value: string): boolean {
  const word = value.toLowerCase();
  return value.length <= 16 && (FUNCTION_WORDS.has(word) || DESCRIPTIVE_WORDS.has(word) || SAFE_WORDS.has(word));
}
