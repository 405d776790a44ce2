/**
 * Judges names for the redaction rules: whether a variable, field, header or flag name says its
 * value is a secret. Zero imports: bundled into hook processes.
 */
/**
 * `weak`: a name that often means a secret but as often does not (`key`, `cacheKey`, `auth`,
 * `sig`): its value is redacted only when it looks generated. `strong`: any value that is not
 * a reference, placeholder, code expression or short number is redacted.
 */
export type NameClass = 'none' | 'weak' | 'strong';

// A segment ending like this names a secret: `pgpassword`, `clientsecret`, `accesstoken`,
// `storepass` (keytool), a password in another language written in ASCII (`db_passwort`).
export const FOREIGN_SEGMENTS = [
  'passwort', 'kennwort', 'contrasena', 'senha', 'wachtwoord', 'haslo', 'heslo', 'passord', 'losenord',
  'adgangskode', 'salasana', 'jelszo', 'geslo', 'lozinka', 'sifre', 'motdepasse',
];
const STRONG_SEGMENT = new RegExp(
  '(?:password|passwd|passphrase|passcode|secret|secrets|token|apikey|credentials?|creds|dsn' +
    `|(?:store|key|ssh|db|root|admin|user|mail|smtp|ftp|pg|mysql|redis|login|vnc|rdp|ldap|bind|wifi)pass|${FOREIGN_SEGMENTS.join('|')})$`,
);
const STRONG_EXACT = new Set(['pwd', 'pw', 'pass', 'cred', 'authorization', 'authorisation', 'requirepass', 'masterauth']);
const WEAK_EXACT = new Set(['auth', 'oauth', 'oauth2', 'sig', 'signature']);
// English words and non-secret "keys" that would otherwise end in `key`.
const NOT_A_KEY = new Set(['monkey', 'donkey', 'turkey', 'hockey', 'jockey', 'whiskey', 'lackey', 'hotkey']);
// `apiKey`, `secret_key`, `SSH_KEY`, `writeKey`: a key that is a credential.
const SECRET_KEY_QUALIFIER = new Set([
  'api', 'access', 'secret', 'private', 'signing', 'sign', 'encryption', 'encrypt', 'enc',
  'decryption', 'master', 'license', 'licence', 'client', 'app', 'service', 'account', 'admin',
  'auth', 'deploy', 'ssh', 'gpg', 'pgp', 'rsa', 'hmac', 'jwt', 'session', 'webhook', 'consumer',
  'subscription', 'shared', 'root', 'sas', 'write', 'read', 'ingest', 'server', 'sdk', 'bot',
]);
// `primary_key`, `cacheKey`, `publicKey`: a key that names data, not a credential.
const DATA_KEY_QUALIFIER = new Set([
  'primary', 'foreign', 'sort', 'partition', 'cache', 'idempotency', 'object', 'hash', 'lookup',
  'map', 'unique', 'composite', 'dedupe', 'dedup', 'group', 'routing', 'shard', 'row', 'range',
  'cluster', 'natural', 'surrogate', 'i18n', 'translation', 'locale', 'message', 'event',
  'storage', 's3', 'bucket', 'react', 'list', 'dict', 'index', 'registry', 'redis', 'public',
  'pub', 'hot', 'short', 'shortcut', 'sorting', 'join', 'query', 'state', 'item', 'node', 'tree',
  'encoded', 'decoded', 'raw',
]);
// A name ending in one of these describes a secret without holding it: `token_type`,
// `password_file`, `api_key_id`, `secret_name`, `TokenExpiredError`.
const METADATA_SEGMENT = new Set([
  'id', 'ids', 'type', 'types', 'kind', 'name', 'names', 'label', 'title', 'description', 'desc',
  'hint', 'help', 'placeholder', 'url', 'uri', 'urls', 'endpoint', 'link', 'host', 'hostname',
  'domain', 'port', 'path', 'paths', 'file', 'files', 'filename', 'dir', 'directory', 'location',
  'length', 'len', 'size', 'bits', 'bytes', 'count', 'expiry', 'expires', 'expiration', 'exp',
  'at', 'in', 'ttl', 'timeout', 'age', 'lifetime', 'method', 'methods', 'mode', 'provider',
  'providers', 'header', 'headers', 'field', 'fields', 'prefix', 'suffix', 'format', 'version',
  'enabled', 'disabled', 'enable', 'disable', 'required', 'optional', 'policy', 'rotation',
  'limit', 'limits', 'max', 'min', 'index', 'usage', 'store', 'storage', 'manager', 'strategy',
  'scheme', 'algorithm', 'alg', 'env', 'var', 'vars', 'source', 'rule', 'rules', 'pattern',
  'regex', 'error', 'errors', 'exception', 'message', 'status', 'state', 'flag', 'flags', 'option',
  'options', 'config', 'configuration', 'settings', 'cache', 'ref', 'reference', 'schema',
  'model', 'service', 'client', 'handler', 'callback', 'fn', 'func', 'function', 'class',
  'module', 'util', 'utils', 'helper', 'helpers', 'validator', 'validation', 'input', 'counter',
  'reset', 'changed', 'strength', 'complexity', 'hash', 'hashed', 'arn', 'arns', 'prompt', 'attempts',
  'encryption', 'cipher', 'stdin', 'stdout', 'fd', 'command', 'cmd', 'helper',
]);
// `token-store.ts: …` is a file name in an error line, not an assignment.
const FILE_NAME = /\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|php|json|ya?ml|toml|ini|cfg|conf|md|txt|sh|bash|zsh|sql|html|css|scss|lock|log|xml|pem|crt|key|pub|env)$/i;

export function nameSegments(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((s) => s !== '');
}

function classifySegment(seg: string, previous: string | undefined): NameClass {
  if (STRONG_SEGMENT.test(seg) || STRONG_EXACT.has(seg)) return 'strong';
  if (WEAK_EXACT.has(seg)) return 'weak';
  // `api_key` or `apikey`: what qualifies the key decides. Unknown qualifiers (`ssrImportKey`,
  // `DOM_KEY_LOCATION`) are weak, not innocent: `weatherKey: "4d7f0c9e2b1a48e6"` still goes.
  if (seg === 'key' || (seg.endsWith('key') && !NOT_A_KEY.has(seg))) {
    const qualifier = seg === 'key' ? previous : seg.slice(0, -3);
    if (qualifier !== undefined && SECRET_KEY_QUALIFIER.has(qualifier)) return 'strong';
    if (qualifier !== undefined && DATA_KEY_QUALIFIER.has(qualifier)) return 'none';
    return 'weak';
  }
  return 'none';
}

/**
 * "Password" (and "token", "secret key") in other languages, for a name written in its own
 * script (`пароль`, `密码`, `contraseña`) or in several words (`mot de passe`). A regex source:
 * the foreign-name rule finds these in text, classifyName in JSON keys.
 */
export const FOREIGN_SECRET_NAME = [
  'passwort', 'kennwort', 'contraseña', 'contrasena', 'clave secreta', 'clave de acceso', 'mot de passe',
  'mot_de_passe', 'motdepasse', 'clé secrète', 'clé api', 'senha', 'palavra-passe', 'chave secreta',
  "parola d['’]ordine", 'wachtwoord', 'hasło', 'haslo', 'heslo', 'passord', 'lösenord', 'losenord',
  'adgangskode', 'salasana', 'salasõna', 'jelszó', 'jelszo', 'parolă', 'şifre', 'şifresi', 'geslo',
  'lozinka', 'slaptažodis', 'mật khẩu', 'kata sandi', 'kata laluan', 'api-schlüssel',
  'пароль', 'парола', 'лозинка', 'токен', 'секретный ключ', 'κωδικός', 'סיסמה', 'סיסמא',
  'كلمة المرور', 'كلمة السر', 'पासवर्ड', 'รหัสผ่าน', '密码', '密碼', '口令', '密钥', '秘钥', '令牌',
  'パスワード', '暗証番号', 'トークン', 'シークレット', '秘密鍵', '비밀번호', '암호', '토큰',
].join('|');
// Built on first use (most hooks never see a name outside ASCII), then never changed.
let foreignName: RegExp | undefined;
const isForeignName = (name: string): boolean => (foreignName ??= new RegExp(`(?:${FOREIGN_SECRET_NAME})$`, 'i')).test(name);

/** How strongly a variable, field, header or flag name says its value is a secret. */
export function classifyName(name: string): NameClass {
  // Splitting camelCase is quadratic in a run of capitals; no real name is this long.
  if (name.length > 256 || FILE_NAME.test(name)) return 'none';
  // Other scripts, or several words: the foreign names (ASCII ones are segments, above).
  if (/[^\x00-\x7f]|\s/.test(name) && isForeignName(name)) return 'strong';
  const segs = nameSegments(name);
  const last = segs[segs.length - 1];
  if (last === undefined) return 'none';
  // The shell's own working-directory variables.
  if (segs.length === 1 && (last === 'pwd' || last === 'oldpwd')) return 'none';
  let best: NameClass = 'none';
  for (let i = 0; i < segs.length; i++) {
    const c = classifySegment(segs[i]!, segs[i - 1]);
    if (c === 'strong') best = 'strong';
    else if (c === 'weak' && best === 'none') best = 'weak';
  }
  // A GCP service account's `private_key_id` is the key's own identifier, shipped beside it in
  // the same JSON file: it goes with the key.
  if (last === 'id' && segs[segs.length - 2] === 'key' && segs[segs.length - 3] === 'private') return 'strong';
  if (best !== 'none' && METADATA_SEGMENT.has(last) && classifySegment(last, segs[segs.length - 2]) === 'none') {
    return 'none';
  }
  return best;
}
