import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactCapped, redactDeepNoLonger } from '../src/redaction/redact-capped.js';
import { redactDeep, redactText } from '../src/redaction/redact.js';
import { benignCases, secretCases, writtenBenignCases, writtenSecretCases } from './redaction-corpus.js';

describe('the redaction corpus', () => {
  it('holds 300+ secrets of 60+ shapes and 300+ ordinary texts, named uniquely, each secret really in its text', () => {
    expect(secretCases.flatMap((c) => c.secrets).length).toBeGreaterThanOrEqual(300);
    expect(new Set(secretCases.map((c) => c.shape)).size).toBeGreaterThanOrEqual(60);
    expect(benignCases.length).toBeGreaterThanOrEqual(300);
    const names = [...secretCases, ...benignCases].map((c) => c.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    for (const c of secretCases) {
      expect(c.secrets.length, c.name).toBeGreaterThan(0);
      for (const secret of c.secrets) expect(c.text, c.name).toContain(secret);
    }
    const wheres = new Set(secretCases.map((c) => c.where));
    expect([...wheres].sort()).toEqual(['command', 'error', 'prompt', 'tool-input', 'url']);
  });

  it('catches at least 98 % of its secrets and changes at most 1 % of its ordinary texts', () => {
    const secrets = secretCases.flatMap((c) => c.secrets.map((secret) => ({ c, secret })));
    const missed = secrets.filter(({ c, secret }) => survivingRun(c.text, secret, c.secrets) !== undefined);
    const changed = benignCases.filter((c) => redactText(c.text) !== c.text);
    const recall = 1 - missed.length / secrets.length;
    const falsePositives = changed.length / benignCases.length;
    const shapes = new Set(secretCases.map((c) => c.shape)).size;
    console.log(
      `redaction corpus: ${secrets.length} secrets of ${shapes} shapes, recall ${recall.toFixed(4)} (${missed.length} missed); ` +
        `${benignCases.length} ordinary texts, false positives ${(falsePositives * 100).toFixed(2)} % (${changed.length} changed)`,
    );
    for (const { c, secret } of missed) console.log(`  missed [${c.shape}] ${c.name}: …${survivingRun(c.text, secret, c.secrets)}…`);
    for (const c of changed) console.log(`  changed ${c.name}: ${JSON.stringify(redactText(c.text))}`);
    expect(recall).toBeGreaterThanOrEqual(0.98);
    expect(falsePositives).toBeLessThanOrEqual(0.01);
  });
});

/**
 * What survives of `secret` once `text` is redacted: a run of 8 of its characters (all of it, if
 * shorter) found in the output but nowhere in the text around the secrets; undefined if none.
 */
function survivingRun(text: string, secret: string, secrets: string[]): string | undefined {
  const out = redactText(text).replace(/\[REDACTED:[\w-]+\]/g, '\u0000');
  const context = secrets.reduce((rest, s) => rest.split(s).join('\u0000'), text);
  const width = Math.min(8, secret.length);
  for (let i = 0; i + width <= secret.length; i++) {
    const run = secret.slice(i, i + width);
    if (out.includes(run) && !context.includes(run)) return run;
  }
  return undefined;
}

describe('redactText', () => {
  it.each(writtenSecretCases)('removes every secret: $name', ({ text, secrets }) => {
    const out = redactText(text);
    for (const secret of secrets) expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED:');
  });

  it.each(writtenBenignCases)('leaves ordinary text byte-identical: $name', ({ text }) => {
    expect(redactText(text)).toBe(text);
  });

  it('leaves no part of a secret after a key id or glued to its own separators (issue 18)', () => {
    const cases: Array<[string, string]> = [
      ['key id AKIAIOSFODNN7EXAMPLE, secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'key id [REDACTED:aws-key], secret [REDACTED:aws-secret]'],
      ['here are my keys: AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'here are my keys: [REDACTED:aws-key] [REDACTED:aws-secret]'],
      ['"private_key_id": "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a",', '"private_key_id": "[REDACTED:assignment]",'],
      ['password=Xk9;mQz7#vL2', 'password=[REDACTED:assignment]'],
      ['PASSWORD=Xk9&mQz7vL2', 'PASSWORD=[REDACTED:env]'],
      ['db password: pa(ss)W0rd99', 'db password: [REDACTED:assignment]'],
      ['password=Xk9;mQz7#vL2; echo done', 'password=[REDACTED:assignment]; echo done'],
      ['?password=Xk9mQz7vL2&user=bob', '?password=[REDACTED:assignment]&user=bob'],
    ];
    for (const [text, expected] of cases) {
      expect(redactText(text), text).toBe(expected);
      expect(redactText(expected), text).toBe(expected);
    }
  });

  it('keeps the non-secret part around each secret readable', () => {
    const cases: Array<[string, string]> = [
      ['Authorization: Bearer 9f8e7d6c5b4a3928FAKE', 'Authorization: Bearer [REDACTED:bearer]'],
      ['authorization: basic YWxpY2U6c2VjcmV0', 'authorization: basic [REDACTED:basic]'],
      ['https://alice:s3cretFAKE@host.example/x', 'https://alice:[REDACTED:url-credentials]@host.example/x'],
      ['redis://:s3cretFAKE@cache:6379', 'redis://:[REDACTED:url-credentials]@cache:6379'],
      ['curl -u alice:s3cretFAKE https://x.example', 'curl -u alice:[REDACTED:basic] https://x.example'],
      ['API_KEY=abc123FAKE', 'API_KEY=[REDACTED:env]'],
      ['export API_KEY="abc123FAKE"', 'export API_KEY="[REDACTED:env]"'],
      ['{"password": "hunter2"}', '{"password": "[REDACTED:assignment]"}'],
      ["{'client_secret': 'abc123FAKE'}", "{'client_secret': '[REDACTED:assignment]'}"],
      ['X-Api-Key: abc123FAKE', 'X-Api-Key: [REDACTED:assignment]'],
      ['mysql --password=hunter2 db', 'mysql --password=[REDACTED:assignment] db'],
      ['gh auth login --token abc123FAKE', 'gh auth login --token [REDACTED:assignment]'],
      ['Password=Sup3rFAKE;Encrypt=True', 'Password=[REDACTED:assignment];Encrypt=True'],
      ['key is ghp_FAKE1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P.', 'key is [REDACTED:github-token].'],
      ['<password>s3cr3tFAKE</password>', '<password>[REDACTED:assignment]</password>'],
      ['-----BEGIN PRIVATE KEY-----\nMIIEvFAKE\n-----END PRIVATE KEY-----\nafter', '[REDACTED:private-key]\nafter'],
    ];
    for (const [input, expected] of cases) expect(redactText(input), input).toBe(expected);
  });

  it('redacts a private key with no END line to the end of the text, which may have been cut', () => {
    const text = 'deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktFAKE\nAAAAC3NzaC1lZDI1NTE5FAKE\nzzz tail';
    expect(redactText(text)).toBe('deploy key:\n[REDACTED:private-key]');
  });

  it('follows a documented rule for UPPER_CASE=value: secret when the name says so or the value looks generated', () => {
    const kept = [
      'PATH=$PATH:/usr/local/bin',
      'GOPATH=${HOME}/go',
      'PORT=3000',
      'RETRY_FACTOR=1.5',
      'CI=true',
      'VERBOSE=off',
      'API_KEY=$API_KEY',
      'KEY_FILE=/etc/ssl/private/server.key',
      'OUT_DIR=./dist',
      'EMPTY=',
      'TOKEN=[REDACTED:env]',
      // A name that says nothing of secrets, and a value that does not look generated.
      'NODE_ENV=production',
      'AWS_REGION=eu-west-1',
      'LOG_LEVEL=debug npm start',
      'NODE_OPTIONS=--max-old-space-size=4096',
      'GIT_SHA=d3be5c3a9f4e2b1c0d8e7f6a5b4c3d2e1f0a9b8c',
    ];
    for (const text of kept) expect(redactText(text), text).toBe(text);
    const redacted: Array<[string, string]> = [
      ['ACME_CONNECT=Zq5Wn2Bv6Ck1FAKE', 'ACME_CONNECT=[REDACTED:env]'],
      ['SENTRY_DSN=https://public@o1.ingest.sentry.io/2', 'SENTRY_DSN=[REDACTED:env]'],
      ['DB_PASSWORD=dragon', 'DB_PASSWORD=[REDACTED:env]'],
      // A secret-named variable keeps nothing but references: no numbers, no bare paths.
      ['DB_PASSWORD=123456', 'DB_PASSWORD=[REDACTED:env]'],
      ['AWS_SECRET_ACCESS_KEY=/K7MDENG/bPxRfiCYEXAMPLEKEY', 'AWS_SECRET_ACCESS_KEY=[REDACTED:env]'],
    ];
    for (const [input, expected] of redacted) expect(redactText(input), input).toBe(expected);
  });

  it('tells code from values: calls, member chains, types and same-named variables stay', () => {
    const code = [
      'const token = getToken();',
      'const apiKey = process.env.API_KEY ?? "";',
      'let secret: string = crypto.randomBytes(32).toString("hex");',
      'self.password = password',
      'return { token: tok, expiresAt };',
      'password: z.string().min(8),',
      'client = OpenAI(api_key=os.environ["OPENAI_API_KEY"])',
      "const { data } = await supabase.auth.signInWithPassword({ email, password });",
    ];
    for (const text of code) expect(redactText(text), text).toBe(text);
    expect(redactText('password = hunter2')).toBe('password = [REDACTED:assignment]');
    // A weak name (`key`, an unknown `…Key`, `auth`, `sig`) keeps values that do not look generated.
    expect(redactText("cacheKey: 'user:42:profile'")).toBe("cacheKey: 'user:42:profile'");
    expect(redactText('key: press Ctrl+K')).toBe('key: press Ctrl+K');
    expect(redactText('weatherKey: "4d7f0c9e2b1a48e6FAKE"')).toBe('weatherKey: "[REDACTED:assignment]"');
    expect(redactText('?key=4d7f0c9e2b1a48e6FAKE&q=1')).toBe('?key=[REDACTED:assignment]&q=1');
    expect(redactText('password: str = "hunter2"')).toBe('password: str = "[REDACTED:assignment]"');
  });

  it('is idempotent over the whole corpus', () => {
    for (const { text } of [...secretCases, ...benignCases]) {
      const once = redactText(text);
      expect(redactText(once), text).toBe(once);
    }
  });

  it('never redacts or grows a marker', () => {
    const text = [
      'TOKEN=[REDACTED:env]',
      'Authorization: Bearer [REDACTED:bearer]',
      'https://alice:[REDACTED:url-credentials]@host/x',
      '"password": "[REDACTED:assignment]"',
      'password: [REDACTED:assignment]',
      '--token [REDACTED:assignment]',
      'curl -u bob:[REDACTED:basic] x',
      'Cookie: [REDACTED:cookie]',
      '[REDACTED:private-key] [REDACTED:github-token] [REDACTED:aws-key]',
    ].join('\n');
    expect(redactText(text)).toBe(text);
  });

  it('is idempotent on any mix of secret-shaped fragments (property)', () => {
    const fragments = [
      '[REDACTED:env]', '[REDACTED:', ']', 'password', 'token', 'key', 'API_KEY', 'Authorization',
      'Bearer ', 'Basic ', ':', '=', ' = ', ': ', '"', "'", '`', '\\', '\\"', '$', '${', '}', '{',
      '(', ')', ' ', '\n', ';', ',', '&', '@', '/', '://', 'user', 'pass', 'sk-', 'ghp_', 'eyJ', '.',
      '-', '--', '_', 'a', 'A', '0', 'abc123XYZ', 'AKIA', 'aws-key', 'export ', 'Cookie: ', '-u ',
      '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', 'secret', 'auth', 'f"',
      'str', ':=', '=>', '--token ', '--password=', 'AKIAABCDEFGHIJKLMNOP', 'eyJabcdefghij.abcdefghij.xyz',
      'sk-abcdefghijklmnopqrstuvwxyz123', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', '://u:p@',
      'Basic dXNlcjpwYXNzd29yZA==', 'hunter2', 'Digest ', 'realm="x"', 'TOKEN=', '<password>', '</password>',
      'sshpass -p ', 'mysql -p', 'docker login -p ', 'echo ', ' | sudo -S ', ' | chpasswd', '<<< ', 'machine h ',
      'login u ', 'password ', 'localhost:5432:db:u:', '%', '-U u%', 'my password is ', 'Passwort: ', '密码：',
      'contraseña=', 'auth=("u", ', 'HTTPBasicAuth(', 'ConvertTo-SecureString ', '-storepass ', 'pass:', 'a:b@h.io',
      'https://', 'abc123XYZabc123XYZabc@', 'password: ', 'correct horse battery', 'sig=', '%2B', 'ssh-ed25519 AAAAC3Nza',
      'dckr_pat_abcdefghijklmnopqrstuvwxyz1', 'with password ', 'creds: u / ', 'storePassword ', 'PuTTY-User-Key-File-3: ',
    ];
    const text = fc.array(fc.constantFrom(...fragments), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 60 })), (input) => {
        const once = redactText(input);
        return redactText(once) === once;
      }),
      { numRuns: 3000, seed: 20261101 },
    );
  });

  it('finds each secret wherever it sits among other lines (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...writtenSecretCases),
        fc.array(fc.constantFrom(...benignCases.map((c) => c.text)), { maxLength: 4 }),
        fc.array(fc.constantFrom(...benignCases.map((c) => c.text)), { maxLength: 4 }),
        (secret, before, after) => {
          const out = redactText([...before, secret.text, ...after].join('\n'));
          return secret.secrets.every((s) => !out.includes(s));
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });
});

describe('the second pass (issue 6)', () => {
  it('finds what the first pass missed, keeping what surrounds it readable (item 14)', () => {
    const cases: Array<[string, string]> = [
      ['sshpass -p Hunt3rFAKE ssh deploy@web1', 'sshpass -p [REDACTED:password] ssh deploy@web1'],
      ['redis-cli -h cache -a R3disFAKEpw ping', 'redis-cli -h cache -a [REDACTED:password] ping'],
      ['mysql -u root -pMyFAKEpass123 shop', 'mysql -u root -p[REDACTED:password] shop'],
      ['ldapsearch -x -D cn=admin,dc=acme -w LdapFAKE99 -b dc=acme', 'ldapsearch -x -D cn=admin,dc=acme -w [REDACTED:password] -b dc=acme'],
      ['docker login -u bot -p DockerFAKE42 registry.acme.dev', 'docker login -u bot -p [REDACTED:password] registry.acme.dev'],
      ['keytool -list -keystore app.jks -storepass KeyFAKEstore1', 'keytool -list -keystore app.jks -storepass [REDACTED:password]'],
      ['aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws configure set aws_secret_access_key [REDACTED:assignment]'],
      ['machine api.acme.dev login deploy password NetrcFAKE77', 'machine api.acme.dev login deploy password [REDACTED:password]'],
      ['db.acme.dev:5432:orders:app:PgpassFAKE88', 'db.acme.dev:5432:orders:app:[REDACTED:password]'],
      ['htpasswd -b /etc/nginx/.htpasswd admin HtFAKEpass9', 'htpasswd -b /etc/nginx/.htpasswd admin [REDACTED:password]'],
      ["echo 'deploy:ChpwFAKE55' | chpasswd", "echo 'deploy:[REDACTED:password]' | chpasswd"],
      ['smbclient //fs/share -U alice%SmbFAKE66', 'smbclient //fs/share -U alice%[REDACTED:password]'],
      ['the tunnel takes admin:S3cretFAKE@10.0.0.5', 'the tunnel takes admin:[REDACTED:password]@10.0.0.5'],
      ['https://ghp_FAKE1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P@github.com/x.git', 'https://[REDACTED:github-token]@github.com/x.git'],
      ['https://a1b2c3d4e5f6a7b8c9d0FAKEtoken@git.acme.dev/x.git', 'https://[REDACTED:url-credentials]@git.acme.dev/x.git'],
      ['curl -b "session=SessFAKE123abc" https://app.acme.dev', 'curl -b "[REDACTED:cookie]" https://app.acme.dev'],
      ['curl --cookie sid=SidFAKE9988 https://app.acme.dev', 'curl --cookie [REDACTED:cookie] https://app.acme.dev'],
      ['https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig=abcFAKE%2Bdef%2Fghi123%3D&se=2025', 'https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig=[REDACTED:assignment]&se=2025'],
      ['dckr_pat_FAKEabcdefghijklmnopqrstu12', '[REDACTED:docker-token]'],
      ['hvs.CAESIFAKEabcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED:vault-token]'],
      ['gsk_FAKEabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN', '[REDACTED:groq-key]'],
      ['AGE-SECRET-KEY-1QFAKEQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ', '[REDACTED:age-key]'],
      ['sntrys_eyJpYXQiOjE2OTAwMDAwMDAuMDAwMDAwfQ_FAKEabcdefghij', '[REDACTED:sentry-token]'],
      ['ATATT3xFfGF0FAKEabcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED:atlassian-token]'],
      ['dapi0123456789abcdef0123456789abcdef', '[REDACTED:databricks-token]'],
      ['key.ppk:\nPuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAFAKE\nPrivate-MAC: 0a1b2c\nend', 'key.ppk:\n[REDACTED:private-key]\nend'],
      ['$pw = ConvertTo-SecureString "PsFAKEpass1!" -AsPlainText -Force', '$pw = ConvertTo-SecureString "[REDACTED:password]" -AsPlainText -Force'],
      ['Passwort: GeheimFAKE1', 'Passwort: [REDACTED:assignment]'],
      ['contraseña=SecretoFAKE2', 'contraseña=[REDACTED:assignment]'],
      ['пароль: ParolFAKE3', 'пароль: [REDACTED:assignment]'],
      ['密码：MimaFAKE4', '密码：[REDACTED:assignment]'],
      ['mot de passe : MdpFAKE5', 'mot de passe : [REDACTED:assignment]'],
      ['senha: SenhaFAKE6', 'senha: [REDACTED:assignment]'],
      ["parola d'ordine: ParolaFAKE7", "parola d'ordine: [REDACTED:assignment]"],
      ['wachtwoord: WwFAKE8', 'wachtwoord: [REDACTED:assignment]'],
      ['hasło: HasloFAKE9', 'hasło: [REDACTED:assignment]'],
      ['パスワード: PwJpFAKE10', 'パスワード: [REDACTED:assignment]'],
      ['비밀번호: PwKoFAKE11', '비밀번호: [REDACTED:assignment]'],
      ['my password is Sunshine42FAKE', 'my password is [REDACTED:secret]'],
      ['the password is tr0ub4dor.', 'the password is [REDACTED:secret].'],
      ['pw: hunterFAKE2 (rotate it)', 'pw: [REDACTED:assignment] (rotate it)'],
      ['requests.get(url, auth=("admin", "AuthFAKEpw1"))', 'requests.get(url, auth=("admin", "[REDACTED:password]"))'],
      ['smtp:\n  password: correct horse battery staple\n  port: 587', 'smtp:\n  password: [REDACTED:assignment]\n  port: 587'],
    ];
    for (const [input, expected] of cases) expect(redactText(input), input).toBe(expected);
  });

  it('leaves alone what the first pass mangled (item 15)', () => {
    const publicKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop';
    const texts = [
      'AWS_REGION=eu-west-1',
      'NODE_ENV=production',
      'password_hash = $1',
      'invalid token: expired',
      'key: "settings.page2.title"',
      'secret_arn: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf',
      publicKey,
      `ssh_key: ${publicKey}`,
      `SSH_PUBLIC_KEY="${publicKey}"`,
      `deploy_key = "${publicKey}"`,
      'rg -n "token=" src/auth',
    ];
    for (const text of texts) expect(redactText(text), text).toBe(text);
  });
});

describe('redactCapped', () => {
  const halfMarker = /\[(?:R(?:E(?:D(?:A(?:C(?:T(?:E(?:D(?::[\w-]*)?)?)?)?)?)?)?)?)?$/;

  it('keeps the cap when a cut turns prose into a credential, and leaves nothing a later pass would grow', () => {
    const prose = 'token: the quick brown fox jumps over the lazy dog';
    expect(redactText(prose)).toBe(prose);
    const text = `${'x'.repeat(191)} ${prose}`;
    expect(text.slice(0, 201)).toMatch(/token: th$/);
    const out = redactCapped(text, 201);
    expect(out.length).toBeLessThanOrEqual(201);
    expect(redactText(out)).toBe(out);
    // A marker that does not fit is dropped whole, never cut in half.
    expect(redactCapped(`${'ls '.repeat(63)}pw=x1y2z3`, 200)).toBe(`${'ls '.repeat(63)}pw=`);
  });

  it('never exceeds its cap, never ends in half a marker, and is left alone by a later pass (property)', () => {
    const fragments = [
      'token: the quick brown fox', 'password = hunter2', 'pw=x1', ' ', 'lorem ipsum ', '\n', 'API_KEY=abc123FAKE',
      '[REDACTED:env]', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'Authorization: Bearer abcdef0123456789',
      'https://u:p4ss@host/x', 'key: ', 'secret', ': ', '=', '"', 'sshpass -p ', 'my password is ', '😀',
    ];
    const text = fc.array(fc.constantFrom(...fragments), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 300 }), (input, cap) => {
        const out = redactCapped(input, cap);
        return out.length <= cap && redactText(out) === out && !halfMarker.test(out) && !/[\ud800-\udbff]$/.test(out);
      }),
      { numRuns: 2000, seed: 13 },
    );
  });

  it('redactDeepNoLonger redacts every string without making any of them longer', () => {
    const stored = { input: `${'x'.repeat(185)} token=abc123FAKE`, error: 'pw=x1', nested: [{ password: 'hunter2' }] };
    const out = redactDeepNoLonger(stored) as typeof stored;
    expect(out.input.length).toBeLessThanOrEqual(stored.input.length);
    expect(out.error).toBe('pw=');
    expect(out.nested[0]!.password).toBe('');
    expect(JSON.stringify(out)).not.toMatch(/abc123FAKE|x1|hunter2/);
    expect(redactDeepNoLonger({ short: 'API_KEY=abc123FAKE0123456789' })).toEqual({ short: 'API_KEY=[REDACTED:env]' });
  });
});

describe('redactDeep', () => {
  it('redacts every string at any depth and leaves keys and other values alone', () => {
    const input = {
      session_id: 'abc-123',
      tool_input: {
        command: 'curl -H "Authorization: Bearer 9f8e7d6c5b4a3928FAKE" https://api.example.com',
        env: [{ name: 'OPENAI_API_KEY', value: 'sk-proj-FAKE4x9Qm2Lr7Tz0Kp3Vb8Nw5Hs1Jd6Yc2Ge9' }],
        nested: { deeper: [[['https://bob:s3cretFAKE@db.example/x']]] },
      },
      count: 3,
      ok: true,
      nothing: null,
      missing: undefined,
    };
    const before = structuredClone(input);
    expect(redactDeep(input)).toEqual({
      session_id: 'abc-123',
      tool_input: {
        command: 'curl -H "Authorization: Bearer [REDACTED:bearer]" https://api.example.com',
        env: [{ name: 'OPENAI_API_KEY', value: '[REDACTED:openai-key]' }],
        nested: { deeper: [[['https://bob:[REDACTED:url-credentials]@db.example/x']]] },
      },
      count: 3,
      ok: true,
      nothing: null,
      missing: undefined,
    });
    expect(input).toEqual(before);
  });

  it('redacts a whole string held under a secret-named key', () => {
    expect(
      redactDeep({ password: 'hunter2', apiKey: 'abcdef', 'X-Auth-Token': 'opaque', token_count: 'many', token: '${TOKEN}' }),
    ).toEqual({
      password: '[REDACTED:assignment]',
      apiKey: '[REDACTED:assignment]',
      'X-Auth-Token': '[REDACTED:assignment]',
      token_count: 'many',
      token: '${TOKEN}',
    });
  });

  it('passes non-strings through and is idempotent', () => {
    for (const value of [0, 1.5, false, null, undefined, 10n]) expect(redactDeep(value)).toBe(value);
    expect(redactDeep('API_KEY=abc123FAKE')).toBe('API_KEY=[REDACTED:env]');
    const once = redactDeep({ a: ['TOKEN=abc123FAKE', { password: 'x' }] });
    expect(redactDeep(once)).toEqual(once);
  });
});

// Time is measured by `npm run bench` (bench/redaction-bench.ts: 1 MB against 8 MB, mixed and
// adversarial), never asserted here. These inputs would take minutes through any pattern that
// backtracks quadratically; here they only have to come out right.
describe('inputs built to make patterns backtrack', () => {
  const fill = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

  it('redacts runs of every rule\'s openings, and a second pass changes nothing', () => {
    const units = [
      'a', '=', ':', '-', 'QWxhZGRpbjpvcGVuIHNlc2FtZQ+/', 'a=', 'AA=', 'key: ', 'password=', 'eyJ',
      'eyJaaaaaaaaa.', 'sk-', '://a:', '"password": "', 'token ', 'a.b.', 'Bearer ', '${', '\\"',
      '-u a:', 'authorization: x ', 'Cookie: ', 'AKIA', '[REDACTED:env]', '--token ', '<password>',
      `${'x'.repeat(90)}_token `, '-----BEGIN RSA PRIVATE KEY-----', 'mysql -p', 'docker login -p ', 'a:b@c.d ',
      'the password is ', 'machine a login b password ', 'echo x | ', 'localhost:5432:a:b:', '密码：', 'Passwort: ',
      'auth=("a", ', 'A'.repeat(24), '1234567890:', 'AKIAIOSFODNN7EXAMPLE ', '[REDACTED:aws-key] ', 'password=a;', 'PASSWORD=a&', 'password: a(b)', 'password: a b c ', 'PuTTY-User-Key-File-2: ', 'with password ',
    ];
    const text = units.map((u) => fill(u, 4096)).join('\n');
    const out = redactText(text);
    expect(out.length).toBeGreaterThan(0);
    expect(redactText(out)).toBe(out);
  });

  it('judges a single huge value', () => {
    // One match whose value is long: the helpers that judge it must be linear too.
    const n = 64 * 1024;
    const values = [
      `key=${'a'.repeat(n)}`,
      `key: "${'ab '.repeat(n / 3)}"`,
      `apiKey: ${'A'.repeat(n)}`,
      `password: ${'AB_'.repeat(n / 3)}C`,
      `"password": "${'{{'.repeat(n / 2)}"`,
      `"password": "${'${{'.repeat(n / 3)}"`,
      `token = ${'a'.repeat(n)}`,
      `API_KEY="${'%a'.repeat(n / 2)}"`,
      `Authorization: Bearer ${'a'.repeat(n)}`,
      `Authorization: Digest ${'a='.repeat(n / 2)}`,
      `Cookie: ${'a=b;'.repeat(n / 4)}`,
      `https://u:${'a'.repeat(n)}@h`,
      `<password>${'a'.repeat(n)}`,
      `--token ${'Ab1'.repeat(n / 3)}`,
      `sshpass -p ${'a'.repeat(n)}`,
      `my password is ${'a1'.repeat(n / 2)}`,
    ];
    for (const text of values) {
      const out = redactText(text);
      expect(redactText(out), text.slice(0, 30)).toBe(out);
    }
    // No real name is this long: judged innocent without splitting it.
    const huge = { ['A'.repeat(n)]: 'x', ['a'.repeat(n) + '_password']: 'y' };
    expect(redactDeep(huge)).toEqual(huge);
  });
});
