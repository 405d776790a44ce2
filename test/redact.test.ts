import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactCapped, redactDeepNoLonger } from '../src/redaction/redact-capped.js';
import { redactDeep, redactText } from '../src/redaction/redact.js';
import { benignCases, secretCases } from './redaction-corpus.js';

describe('the redaction corpus', () => {
  it('is large enough, named uniquely, and each secret is really in its text', () => {
    expect(secretCases.length).toBeGreaterThanOrEqual(45);
    expect(benignCases.length).toBeGreaterThanOrEqual(30);
    const names = [...secretCases, ...benignCases].map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of secretCases) {
      expect(c.secrets.length, c.name).toBeGreaterThan(0);
      for (const secret of c.secrets) expect(c.text, c.name).toContain(secret);
    }
    const wheres = new Set(secretCases.map((c) => c.where));
    expect([...wheres].sort()).toEqual(['command', 'error', 'prompt', 'tool-input', 'url']);
  });
});

describe('redactText', () => {
  it.each(secretCases)('removes every secret: $name', ({ text, secrets }) => {
    const out = redactText(text);
    for (const secret of secrets) expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED:');
  });

  it.each(benignCases)('leaves ordinary text byte-identical: $name', ({ text }) => {
    expect(redactText(text)).toBe(text);
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

  it('follows a documented rule for UPPER_CASE=value: only references, paths, numbers and booleans stay', () => {
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
    ];
    for (const text of kept) expect(redactText(text), text).toBe(text);
    const redacted: Array<[string, string]> = [
      ['NODE_ENV=production', 'NODE_ENV=[REDACTED:env]'],
      ['LOG_LEVEL=debug npm start', 'LOG_LEVEL=[REDACTED:env] npm start'],
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
        fc.constantFrom(...secretCases),
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

describe('performance', () => {
  const MB = 1 << 20;
  const fill = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

  it('redacts 1 MB of adversarial text in linear time', () => {
    // Runs long enough that any quadratic pattern would take minutes.
    const units = [
      'a', '=', ':', '-', 'QWxhZGRpbjpvcGVuIHNlc2FtZQ+/', 'a=', 'AA=', 'key: ', 'password=', 'eyJ',
      'eyJaaaaaaaaa.', 'sk-', '://a:', '"password": "', 'token ', 'a.b.', 'Bearer ', '${', '\\"',
      '-u a:', 'authorization: x ', 'Cookie: ', 'AKIA', '[REDACTED:env]', '--token ', '<password>',
      `${'x'.repeat(90)}_token `, '-----BEGIN RSA PRIVATE KEY-----',
    ];
    const text = units.map((u) => fill(u, Math.floor(MB / units.length))).join('\n');
    const start = performance.now();
    const out = redactText(text);
    const ms = performance.now() - start;
    console.log(`redactText: ${(text.length / MB).toFixed(2)} MB of adversarial text in ${ms.toFixed(1)} ms`);
    expect(out.length).toBeGreaterThan(0);
    expect(ms).toBeLessThan(2000);
  });

  it('judges a single huge value in linear time', () => {
    // One match whose value is long: the helpers that judge it must be linear too.
    const n = 256 * 1024;
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
    ];
    for (const text of values) {
      const start = performance.now();
      redactText(text);
      expect(performance.now() - start, text.slice(0, 30)).toBeLessThan(1000);
    }
    const start = performance.now();
    redactDeep({ ['A'.repeat(n)]: 'x', ['a'.repeat(n) + '_password']: 'y' });
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it('redacts 1 MB of mixed text and a 21 KB prompt quickly', () => {
    const corpus = [...secretCases, ...benignCases].map((c) => c.text).join('\n') + '\n';
    const mixed = fill(corpus, MB);
    let start = performance.now();
    redactText(mixed);
    const mixedMs = performance.now() - start;

    const prompt = fill(corpus, 21 * 1024);
    redactText(prompt);
    const runs = 50;
    start = performance.now();
    for (let i = 0; i < runs; i++) redactText(prompt);
    const promptMs = (performance.now() - start) / runs;
    console.log(`redactText: 1 MB of mixed text in ${mixedMs.toFixed(1)} ms; a 21 KB prompt in ${promptMs.toFixed(2)} ms`);
    expect(mixedMs).toBeLessThan(2000);
    expect(promptMs).toBeLessThan(200);
  });
});
