// The redactor's speed, as ratios measured in one run: a megabyte of mixed developer text against
// a plain String.prototype.replace scan of the same text, and 8 MB against eight times 1 MB (the
// patterns must stay linear, on mixed text and on text built to make them backtrack).
import { redactText } from '../src/redaction/redact.js';

export interface RedactionBenchResult {
  /** Worst of mixed and adversarial: time for 8 MB over eight times the time for 1 MB. */
  linearity: number;
  mixedMs: number;
  scanMs: number;
  promptMs: number;
  adversarialMs: number;
}

const MB = 1 << 20;

// What hooks see: commands, configs, errors, code, prose, about one line in eight with a secret.
// Every secret is fake.
const LINES = [
  'npm test -- --run src/auth/session.test.ts',
  'git commit -m "fix token refresh race in the session store"',
  'docker run --rm -p 8080:80 -v "$PWD/site":/usr/share/nginx/html nginx:1.27-alpine',
  'kubectl logs deploy/api -n prod --since=15m | grep -i "invalid token"',
  'const token = await getAccessToken({ scopes: ["repo"] });',
  'if (!(await bcrypt.compare(password, user.passwordHash))) return res.status(401).end();',
  'UPDATE users SET password_hash = $1, updated_at = now() WHERE id = $2',
  'TypeError: Cannot read properties of undefined (reading \'accessToken\')',
  '    at refresh (src/auth/session.ts:88:11)',
  'error TS2339: Property \'apiKey\' does not exist on type \'Config\'.',
  'NODE_ENV=production AWS_REGION=eu-west-1 node dist/server.js',
  'spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/orders\n    password: ${DB_PASSWORD}',
  'The token is refreshed every hour by the background job; the password is stored as a bcrypt hash.',
  'Why does the payments test fail on CI but not locally? It passes with the staging config.',
  'https://github.com/acme/api/blob/main/src/auth/token.ts#L42-L58',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop',
  'export GITHUB_TOKEN=ghp_FAKE1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P',
  'curl -H "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0FAKE" https://api.acme.dev/v1/me',
  'DATABASE_URL=postgres://app:Pg-FAKE-9x8y7z@db.acme.dev:5432/orders npx prisma migrate deploy',
  'sshpass -p Hunt3rFAKE ssh deploy@web-1.acme.dev "sudo systemctl restart api"',
  '{"apiKey": "FAKE-7f3a9c2e1b0d4e6f8a7b", "client_id": "web-dashboard"}',
  'my password is Sunshine42FAKE but the login form keeps rejecting it',
];

function mixedText(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    // Numbered, so no two megabytes repeat byte for byte and no cache can help.
    const line = `${LINES[i % LINES.length]} #${i}`;
    parts.push(line);
    length += line.length + 1;
  }
  return parts.join('\n').slice(0, size);
}

function adversarialText(size: number): string {
  const units = [
    'a', '=', ':', '-', 'QWxhZGRpbjpvcGVuIHNlc2FtZQ+/', 'key: ', 'password=', 'eyJaaaaaaaaa.', 'sk-', '://a:',
    '"password": "', 'Bearer ', '${', '-u a:', 'authorization: x ', 'Cookie: ', 'AKIA', '[REDACTED:env]', '--token ',
    '-----BEGIN RSA PRIVATE KEY-----', 'mysql -p', 'docker login -p ', 'a:b@c.d ', 'the password is ', 'echo x | ',
    'localhost:5432:a:b:', '密码：', 'auth=("a", ', 'A'.repeat(24), 'password: a b c ', 'with password ',
  ];
  const each = Math.floor(size / units.length);
  return units.map((u) => u.repeat(Math.ceil(each / u.length)).slice(0, each)).join('\n');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

export function redactionBench(rounds = 3): RedactionBenchResult {
  const mixed = mixedText(MB);
  const mixed8 = mixedText(8 * MB);
  const adversarial = adversarialText(MB);
  const adversarial8 = adversarialText(8 * MB);
  const prompt = mixedText(21 * 1024);
  // Warm-up: every pattern compiled and optimised before anything is timed.
  redactText(mixed);
  redactText(adversarial);
  const t = { mixed: [] as number[], mixed8: [] as number[], scan: [] as number[], adversarial: [] as number[], adversarial8: [] as number[], prompt: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    t.scan.push(time(() => mixed.replace(/[\w.-]+/g, (word) => word)));
    t.mixed.push(time(() => redactText(mixed)));
    t.mixed8.push(time(() => redactText(mixed8)));
    t.adversarial.push(time(() => redactText(adversarial)));
    t.adversarial8.push(time(() => redactText(adversarial8)));
    t.prompt.push(time(() => {
      for (let i = 0; i < 20; i++) redactText(prompt);
    }) / 20);
  }
  const linearity = Math.max(median(t.mixed8) / (8 * median(t.mixed)), median(t.adversarial8) / (8 * median(t.adversarial)));
  return { linearity, mixedMs: median(t.mixed), scanMs: median(t.scan), promptMs: median(t.prompt), adversarialMs: median(t.adversarial) };
}
