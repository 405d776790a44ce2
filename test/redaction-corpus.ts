/**
 * Strings the hooks must redact, and strings they must leave byte-identical. Plain data, no test
 * framework: the unit tests in redact.test.ts and the end-to-end hook tests both drive it.
 *
 * Every secret here is fake — realistic in length and alphabet, often with FAKE or EXAMPLE in
 * it, or generated from a fixed seed — so the corpus can live in the repository. `secrets`
 * lists the exact substrings that must not survive redaction. The cases written out here come
 * first; vendor tokens (redaction-corpus-tokens.ts), secrets only a context gives away
 * (redaction-corpus-contexts.ts) and ordinary text (redaction-corpus-ordinary.ts) join them.
 */
import { contextSecretCases } from './redaction-corpus-contexts.js';
import { ordinaryTexts } from './redaction-corpus-ordinary.js';
import { tokenSecretCases } from './redaction-corpus-tokens.js';

export type SecretWhere = 'prompt' | 'command' | 'url' | 'tool-input' | 'error';

export interface SecretCase {
  name: string;
  /** What kind of secret this is, whatever its surroundings: the unit of the shape count. */
  shape: string;
  where: SecretWhere;
  text: string;
  secrets: string[];
}

export interface BenignCase {
  name: string;
  text: string;
}

// Shared fake values, so a case and its `secrets` cannot drift apart.
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkZha2UgVXNlciIsImlhdCI6MTUxNjIzOTAyMn0.FAKEsig4rP9xQm2Lr7Tz0Kp3Vb8Nw5Hs1Jd6Yc2Ge';
const OPENAI = 'sk-proj-FAKE4x9Qm2Lr7Tz0Kp3Vb8Nw5Hs1Jd6Yc2Ge9Ua4Ri7Ot0Xl3Mf8Zq5Wn2Bv6Ck1T3BlbkFJfakeKEY0000';
const OPENAI_LEGACY = 'sk-FAKEa1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0';
const ANTHROPIC =
  'sk-ant-api03-FAKEq8Zr2Lm5Tn9Xv1Kp4Wb7Hs0Jd3Yc6Ge9Ua2Ri5Ot8Xl1Mf4Zq7Wn0Bv3Ck6Dp9Er2Fs5Gt8Hu1Iv4Jw7Kx0Ly3Mz6Na9Ob2-EXAMPLEAA';
const GHP = 'ghp_FAKE1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P';
const GHO = 'gho_FAKE9z8Y7x6W5v4U3t2S1r0Q9p8O7n6M5l4K';
const GHS = 'ghs_FAKE2b3C4d5E6f7G8h9I0j1K2l3M4n5O6p7Q';
const GITHUB_PAT = 'github_pat_11FAKE0000A1b2C3d4E5f6G7_h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4Y5z6A7b8C9d0E1f2G3h4I5j6K7l8M9';
const GLPAT = 'glpat-FAKEx8Zr2Lm5Tn9Xv1Kp';
const XOXB = 'xoxb-1234567890123-1234567890123-FAKEaBcDeFgHiJkLmNoPqRsT';
const XOXP = 'xoxp-1234567890123-1234567890123-1234567890123-fakefakefakefakefakefakefake1234';
const AKIA = 'AKIAIOSFODNN7EXAMPLE';
const ASIA = 'ASIAFAKE7EXAMPLE0000';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const GCP_KEY_ID = '3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a';
const AWS_SESSION = 'IQoJb3JpZ2luX2VjEFAKEaCXVzLWVhc3QtMSJHMEUCIQDfakeEXAMPLEtokenValue0123456789abcdefFAKE==';
const GOOGLE = 'AIzaSyFAKE-0123456789abcdefGHIJKLMNOPq';
const STRIPE = 'sk_live_FAKE51HqLyjWDarjtT1zdp7dcEXAMPLE00';
const STRIPE_RK = 'rk_live_FAKE51HqLyjWDarjtT1zdp7dcEXAMPLE11';
const NPM = 'npm_FAKEa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7';
const HF = 'hf_FAKEaBcDeFgHiJkLmNoPqRsTuVwXyZ012345';
const SENDGRID = 'SG.FAKEabcdEFGHijklMNOPqr.FAKEstuvWXYZ0123456789abcdefGHIJKLMNOPqrstu';
const SLACK_HOOK_PATH = 'T00000000/B00000000/FAKEXXXXXXXXXXXXXXXXXXXX';
const DISCORD_HOOK_PATH = '123456789012345678/FAKEabcdefGHIJKLmnopQRSTuvwxYZ0123456789-_abcdefghij';
const BASIC_B64 = 'YWxpY2U6czNjcjN0UDRzcw==';
const PEM_BODY = [
  'MIIEowIBAAKCAQEAFAKEk2ZxV8hP1rL0c9sT3uW7yQ4nB6mJ2gF5dS8aK1eR0tY7',
  'FAKEuI3oP6lZ9xC2vB5nM8qW1eR4tY7uI0oP3aS6dF9gH2jK5lZ8xC1vB4nM7qW0',
  'EXAMPLEeR3tY6uI9oP2aS5dF8gH1jK4lZ7xC0vB3nM6qW9eR2tY5uI8oP1aS4dF7==',
];
const OPENSSH_BODY = [
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'FAKEQyNTUxOQAAACBFAKEexampleKEYmaterial0123456789abcdefghijklmnopqrstuv',
];

/** The cases written out by hand: each is a regression test of its own. */
export const writtenSecretCases: SecretCase[] = [
  // ── known token formats ──
  {
    name: 'OpenAI project key pasted in a prompt',
    shape: 'openai-project-key',
    where: 'prompt',
    text: `My OpenAI key is ${OPENAI}, can you wire it into the client for now? I'll rotate it later.`,
    secrets: [OPENAI],
  },
  {
    name: 'legacy OpenAI key in an error message',
    shape: 'openai-legacy-key',
    where: 'error',
    text: `openai.AuthenticationError: Error code: 401 - Incorrect API key provided: ${OPENAI_LEGACY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    secrets: [OPENAI_LEGACY],
  },
  {
    name: 'Anthropic key exported in a shell command',
    shape: 'anthropic-key',
    where: 'command',
    text: `export ANTHROPIC_API_KEY='${ANTHROPIC}' && claude -p "hello"`,
    secrets: [ANTHROPIC],
  },
  {
    name: 'Anthropic key in Python code in a prompt',
    shape: 'anthropic-key',
    where: 'prompt',
    text: `why does this fail?\n\nclient = anthropic.Anthropic(api_key="${ANTHROPIC}")\nmsg = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=[])`,
    secrets: [ANTHROPIC],
  },
  {
    name: 'GitHub classic token as the user of a remote URL',
    shape: 'github-classic-token',
    where: 'command',
    text: `git remote set-url origin https://${GHP}@github.com/acme/payments-service.git`,
    secrets: [GHP],
  },
  {
    name: 'GitHub OAuth token in prose',
    shape: 'github-oauth-token',
    where: 'prompt',
    text: `gh auth status shows the token ${GHO} with scopes repo, read:org — is that enough for the release workflow?`,
    secrets: [GHO],
  },
  {
    name: 'GitHub app token in a failed push',
    shape: 'github-app-token',
    where: 'error',
    text: `remote: Invalid username or password.\nfatal: Authentication failed for 'https://x-access-token:${GHS}@github.com/acme/infra.git/'`,
    secrets: [GHS],
  },
  {
    name: 'fine-grained GitHub PAT in gh login',
    shape: 'github-fine-grained-token',
    where: 'command',
    text: `echo ${GITHUB_PAT} | gh auth login --with-token`,
    secrets: [GITHUB_PAT],
  },
  {
    name: 'GitLab PAT in a clone URL',
    shape: 'gitlab-pat',
    where: 'url',
    text: `https://oauth2:${GLPAT}@gitlab.com/acme/platform/deploy-tools.git`,
    secrets: [GLPAT],
  },
  {
    name: 'Slack bot token in a curl call',
    shape: 'slack-bot-token',
    where: 'command',
    text: `curl -s -X POST https://slack.com/api/chat.postMessage -d token=${XOXB} -d channel=C0123456789 -d text="deploy done"`,
    secrets: [XOXB],
  },
  {
    name: 'Slack user token in JSON tool input',
    shape: 'slack-user-token',
    where: 'tool-input',
    text: `{"command":"node scripts/post.js","env":{"SLACK_TOKEN":"${XOXP}"}}`,
    secrets: [XOXP],
  },
  {
    name: 'Slack incoming webhook URL',
    shape: 'slack-webhook-url',
    where: 'url',
    text: `https://hooks.slack.com/services/${SLACK_HOOK_PATH}`,
    secrets: [SLACK_HOOK_PATH, 'FAKEXXXXXXXXXXXXXXXXXXXX'],
  },
  {
    name: 'Discord webhook URL in a prompt',
    shape: 'discord-webhook-url',
    where: 'prompt',
    text: `post the nightly report to https://discord.com/api/webhooks/${DISCORD_HOOK_PATH} instead of email`,
    secrets: [DISCORD_HOOK_PATH],
  },
  {
    name: 'AWS credentials file pasted in a prompt',
    shape: 'aws-credentials-file',
    where: 'prompt',
    text: `here is my ~/.aws/credentials, why does boto3 still say access denied?\n\n[default]\naws_access_key_id = ${AKIA}\naws_secret_access_key = ${AWS_SECRET}\nregion = us-east-1`,
    secrets: [AKIA, AWS_SECRET],
  },
  {
    name: 'AWS temporary credentials exported in a command',
    shape: 'aws-environment-credentials',
    where: 'command',
    text: `export AWS_ACCESS_KEY_ID=${ASIA} AWS_SECRET_ACCESS_KEY=${AWS_SECRET} AWS_SESSION_TOKEN=${AWS_SESSION}; aws s3 ls`,
    secrets: [ASIA, AWS_SECRET, AWS_SESSION],
  },
  {
    name: 'AWS key id and secret in a sentence, the secret after the id',
    shape: 'aws-secret-after-key-id',
    where: 'prompt',
    text: `use key id ${AKIA}, secret ${AWS_SECRET} for the staging bucket`,
    secrets: [AKIA, AWS_SECRET],
  },
  {
    name: 'AWS key pair pasted bare after a colon, in a failed command',
    shape: 'aws-secret-after-key-id',
    where: 'error',
    text: `deploy failed; here are my keys: ${ASIA} ${AWS_SECRET}`,
    secrets: [ASIA, AWS_SECRET],
  },
  {
    name: 'AWS key pair on two lines of a prompt',
    shape: 'aws-secret-after-key-id',
    where: 'prompt',
    text: `the CI user is\n${AKIA}\n${AWS_SECRET}\nwhy is it denied?`,
    secrets: [AKIA, AWS_SECRET],
  },
  {
    name: 'GCP service account key file in a tool input',
    shape: 'gcp-service-account-key',
    where: 'tool-input',
    text: `{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key_id": "${GCP_KEY_ID}",\n  "client_email": "ci@acme-prod.iam.gserviceaccount.com"\n}`,
    secrets: [GCP_KEY_ID],
  },
  {
    name: 'password with a semicolon glued inside it',
    shape: 'password-with-separators',
    where: 'prompt',
    text: 'the app logs in with password=Xk9;mQz7#vL2 on staging',
    secrets: ['Xk9;mQz7#vL2'],
  },
  {
    name: 'PASSWORD variable with an ampersand glued inside it',
    shape: 'password-with-separators',
    where: 'command',
    text: 'PASSWORD=Xk9&mQz7vL2 ./migrate.sh',
    secrets: ['Xk9&mQz7vL2'],
  },
  {
    name: 'password with parentheses inside it, after a colon',
    shape: 'password-with-separators',
    where: 'prompt',
    text: 'db password: pa(ss)W0rd99',
    secrets: ['pa(ss)W0rd99'],
  },
  {
    name: 'AWS key id alone in an error',
    shape: 'aws-access-key-id',
    where: 'error',
    text: `An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid. (key ${AKIA})`,
    secrets: [AKIA],
  },
  {
    name: 'Google API key in a URL query',
    shape: 'google-api-key',
    where: 'url',
    text: `https://maps.googleapis.com/maps/api/geocode/json?address=1600+Amphitheatre&key=${GOOGLE}`,
    secrets: [GOOGLE],
  },
  {
    name: 'Stripe live and restricted keys in a .env',
    shape: 'stripe-secret-key',
    where: 'tool-input',
    text: `STRIPE_SECRET_KEY=${STRIPE}\nSTRIPE_RESTRICTED=${STRIPE_RK}\nSTRIPE_MODE=live`,
    secrets: [STRIPE, STRIPE_RK],
  },
  {
    name: 'npm token in .npmrc',
    shape: 'npm-token',
    where: 'tool-input',
    text: `//registry.npmjs.org/:_authToken=${NPM}\n@acme:registry=https://npm.pkg.github.com`,
    secrets: [NPM],
  },
  {
    name: 'Hugging Face token in a login command',
    shape: 'huggingface-token',
    where: 'command',
    text: `huggingface-cli login --token ${HF} --add-to-git-credential`,
    secrets: [HF],
  },
  {
    name: 'SendGrid key in JavaScript',
    shape: 'sendgrid-key',
    where: 'prompt',
    text: `sgMail.setApiKey('${SENDGRID}');\nawait sgMail.send(msg); // why 403?`,
    secrets: [SENDGRID],
  },
  // ── JWTs and Authorization headers ──
  {
    name: 'JWT bearer header in curl',
    shape: 'bearer authorization header',
    where: 'command',
    text: `curl -sS -H "Authorization: Bearer ${JWT}" -H 'Accept: application/json' https://api.internal.acme.dev/v2/orders?limit=5`,
    secrets: [JWT],
  },
  {
    name: 'bare JWT in a failed request log',
    shape: 'jwt',
    where: 'error',
    text: `JsonWebTokenError: invalid signature\n    at verify (node_modules/jsonwebtoken/verify.js:171:19)\n  token: ${JWT}`,
    secrets: [JWT],
  },
  {
    name: 'opaque bearer token in a fetch call',
    shape: 'bearer authorization header',
    where: 'prompt',
    text: `fetch("https://api.acme.dev/me", { headers: { "Authorization": "Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0FAKE" } })`,
    secrets: ['9f8e7d6c5b4a39281706f5e4d3c2b1a0FAKE'],
  },
  {
    name: 'Basic credentials in a raw HTTP request',
    shape: 'basic authorization header',
    where: 'prompt',
    text: `GET /admin HTTP/1.1\r\nHost: intranet.acme.local\r\nAuthorization: Basic ${BASIC_B64}\r\nUser-Agent: curl/8.4.0`,
    secrets: [BASIC_B64],
  },
  {
    name: 'curl -u user:password',
    shape: 'curl -u user:password',
    where: 'command',
    text: 'curl -u deploy:Tr0ub4dor-FAKE-3 -X POST https://jenkins.acme.dev/job/release/build',
    secrets: ['Tr0ub4dor-FAKE-3'],
  },
  {
    name: 'curl --user with quotes',
    shape: 'curl -u user:password',
    where: 'command',
    text: "curl --user 'admin:p@ssW0rdFAKE' https://registry.acme.dev/v2/_catalog",
    secrets: ['p@ssW0rdFAKE'],
  },
  {
    name: 'API key header in curl',
    shape: 'api key header',
    where: 'command',
    text: 'curl https://api.acme.dev/v1/reports -H "X-Api-Key: 4d7f0c9e2b1a48e6FAKE93c5d0e7a1b2" -H "Content-Type: application/json"',
    secrets: ['4d7f0c9e2b1a48e6FAKE93c5d0e7a1b2'],
  },
  {
    name: 'session cookie in curl',
    shape: 'cookie header',
    where: 'command',
    text: `curl 'https://app.acme.dev/api/me' -H 'Cookie: sessionid=q8zr2lm5tn9xv1kpFAKE; csrftoken=Wb7Hs0Jd3Yc6Ge9FAKE' --compressed`,
    secrets: ['q8zr2lm5tn9xv1kpFAKE', 'Wb7Hs0Jd3Yc6Ge9FAKE'],
  },
  {
    name: 'Bearer token outside a header, in prose',
    shape: 'bearer token in prose',
    where: 'prompt',
    text: 'the webhook sends Bearer a1B2c3D4e5F6g7H8i9J0FAKE in a custom X-Hook-Auth header, validate it',
    secrets: ['a1B2c3D4e5F6g7H8i9J0FAKE'],
  },
  // ── credentials in URLs ──
  {
    name: 'postgres URL in DATABASE_URL',
    shape: 'password in a URL',
    where: 'command',
    text: 'DATABASE_URL=postgres://app_user:Pg-FAKE-9x8y7z@db.internal.acme.dev:5432/orders npx prisma migrate deploy',
    secrets: ['Pg-FAKE-9x8y7z'],
  },
  {
    name: 'MongoDB SRV URL in a prompt',
    shape: 'password in a URL',
    where: 'prompt',
    text: 'mongoose.connect fails with mongodb+srv://admin:M0ngoFAKEpass@cluster0.ab1cd.mongodb.net/shop?retryWrites=true&w=majority — timeout after 30s',
    secrets: ['M0ngoFAKEpass'],
  },
  {
    name: 'Redis URL with password only',
    shape: 'password in a URL',
    where: 'url',
    text: 'redis://:r3disFAKEsecret@cache.acme.dev:6379/0',
    secrets: ['r3disFAKEsecret'],
  },
  {
    name: 'AMQP URL in a connection error',
    shape: 'password in a URL',
    where: 'error',
    text: 'Error: Socket closed abruptly during opening handshake at amqp://rabbit:Amqp-FAKE-42@mq.acme.dev:5672/%2F',
    secrets: ['Amqp-FAKE-42'],
  },
  {
    name: 'FTP URL with an unencoded @ in the password',
    shape: 'password in a URL',
    where: 'url',
    text: 'ftp://backup:FAKE@pass123@files.acme.dev/nightly/db.tar.gz',
    secrets: ['FAKE@pass123'],
  },
  {
    name: 'JDBC URL with password parameter',
    shape: 'password query parameter',
    where: 'tool-input',
    text: 'jdbc:mysql://db.acme.dev:3306/billing?user=billing&password=J4vaFAKEsecret&useSSL=true',
    secrets: ['J4vaFAKEsecret'],
  },
  // ── private keys ──
  {
    name: 'RSA private key pasted in a prompt',
    shape: 'PEM private key',
    where: 'prompt',
    text: `is this key in the right format for the deploy action?\n\n-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.join('\n')}\n-----END RSA PRIVATE KEY-----\n\nthe action says "invalid format"`,
    secrets: PEM_BODY,
  },
  {
    name: 'OpenSSH private key cut before its END line',
    shape: 'OpenSSH private key',
    where: 'tool-input',
    text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${OPENSSH_BODY.join('\n')}`,
    secrets: OPENSSH_BODY,
  },
  {
    name: 'GCP service-account JSON with an escaped private key',
    shape: 'service-account JSON key',
    where: 'prompt',
    text: `{"type": "service_account", "project_id": "acme-prod", "private_key_id": "FAKEd2a1b0c9f8e7d6c5b4a3928170f6e5d4c3b2", "private_key": "-----BEGIN PRIVATE KEY-----\\n${PEM_BODY[0]}\\n${PEM_BODY[1]}\\n-----END PRIVATE KEY-----\\n", "client_email": "deployer@acme-prod.iam.gserviceaccount.com"}`,
    secrets: [PEM_BODY[0]!, PEM_BODY[1]!],
  },
  // ── named assignments ──
  {
    name: 'JSON config with apiKey and client_secret',
    shape: 'secret-named JSON field',
    where: 'tool-input',
    text: '{"apiKey": "FAKE-7f3a9c2e1b0d4e6f8a7b", "client_id": "web-dashboard", "client_secret": "cs_FAKE_9QmLr7Tz0Kp3Vb8Nw5Hs"}',
    secrets: ['FAKE-7f3a9c2e1b0d4e6f8a7b', 'cs_FAKE_9QmLr7Tz0Kp3Vb8Nw5Hs'],
  },
  {
    name: 'docker-compose environment in YAML',
    shape: 'secret-named YAML field',
    where: 'prompt',
    text: 'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: s3cretFAKEpw\n      PGDATA: /var/lib/postgresql/data',
    secrets: ['s3cretFAKEpw'],
  },
  {
    name: 'plain YAML password',
    shape: 'secret-named YAML field',
    where: 'prompt',
    text: 'smtp:\n  host: smtp.acme.dev\n  username: mailer\n  password: hunterFAKE\n  port: 587',
    secrets: ['hunterFAKE'],
  },
  {
    name: 'JavaScript string constant',
    shape: 'secret-named string constant',
    where: 'prompt',
    text: `const stripeKey = "${STRIPE}";\nconst webhookSecret = 'whsec_FAKEabcdefghijklmnopqrstuvwxyz012345';`,
    secrets: [STRIPE, 'whsec_FAKEabcdefghijklmnopqrstuvwxyz012345'],
  },
  {
    name: 'Python settings with a typed default',
    shape: 'secret-named string constant',
    where: 'prompt',
    text: 'class Settings(BaseSettings):\n    db_password: str = "FAKE-pw-Zq5Wn2Bv6"\n    jwt_secret: str = "FAKE_jwt_signing_material_0123"\n    debug: bool = False',
    secrets: ['FAKE-pw-Zq5Wn2Bv6', 'FAKE_jwt_signing_material_0123'],
  },
  {
    name: 'PHP variable assignment',
    shape: 'secret-named string constant',
    where: 'prompt',
    text: "<?php\n$password = 'FAKEphpPa55';\n$db = new PDO($dsn, 'root', $password);",
    secrets: ['FAKEphpPa55'],
  },
  {
    name: 'CLI --password= and --token flags',
    shape: 'secret-named long flag',
    where: 'command',
    text: 'mysqldump --user=backup --password=Dump-FAKE-77 shop > shop.sql && vercel deploy --prod --token Vc1FAKEx9Zr2Lm5Tn',
    secrets: ['Dump-FAKE-77', 'Vc1FAKEx9Zr2Lm5Tn'],
  },
  {
    name: 'ADO.NET connection string',
    shape: 'connection string',
    where: 'tool-input',
    text: 'Server=tcp:acme.database.windows.net,1433;Initial Catalog=orders;User ID=orders_app;Password=Ad0FAKE!pass;Encrypt=True;',
    secrets: ['Ad0FAKE!pass'],
  },
  {
    name: 'Azure storage connection string',
    shape: 'connection string',
    where: 'tool-input',
    text: 'DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=FAKEk2ZxV8hP1rL0c9sT3uW7yQ4nB6mJ2gF5dS8aK1eR0tY7uI3oP6lZ9xC2vB5nM8qW1eR4tY7uI0oP3aS6dF9gH2jK5lZ8xA==;EndpointSuffix=core.windows.net',
    secrets: ['FAKEk2ZxV8hP1rL0c9sT3uW7yQ4nB6mJ2gF5dS8aK1eR0tY7uI3oP6lZ9xC2vB5nM8qW1eR4tY7uI0oP3aS6dF9gH2jK5lZ8xA=='],
  },
  {
    name: 'OAuth client-credentials request body',
    shape: 'form body secret',
    where: 'command',
    text: 'curl -X POST https://auth.acme.dev/oauth/token -d "grant_type=client_credentials&client_id=reporting&client_secret=oaFAKE8x7Zq2Lm5Tn9Xv"',
    secrets: ['oaFAKE8x7Zq2Lm5Tn9Xv'],
  },
  {
    name: 'refresh token in a JSON error body',
    shape: 'secret-named JSON field',
    where: 'error',
    text: 'HTTP 400 {"error":"invalid_grant","error_description":"Token has been expired or revoked.","refresh_token":"1//0gFAKEexampleRefreshToken-abcDEF123"}',
    secrets: ['1//0gFAKEexampleRefreshToken-abcDEF123'],
  },
  {
    name: 'escaped JSON body in a curl command',
    shape: 'secret-named JSON field',
    where: 'command',
    text: 'curl -X POST https://api.acme.dev/login -H "Content-Type: application/json" -d "{\\"username\\":\\"ops\\",\\"password\\":\\"Esc4pedFAKE\\"}"',
    secrets: ['Esc4pedFAKE'],
  },
  {
    name: 'kubectl secret from literal',
    shape: 'secret set on a command line',
    where: 'command',
    text: 'kubectl create secret generic db-creds --from-literal=username=app --from-literal=password=K8sFAKEpw-42',
    secrets: ['K8sFAKEpw-42'],
  },
  {
    name: 'psql keyword connection string',
    shape: 'connection string',
    where: 'command',
    text: 'psql "host=db.acme.dev port=5432 dbname=orders user=app password=PsqlFAKE99 sslmode=require"',
    secrets: ['PsqlFAKE99'],
  },
  {
    name: 'secret in a query string',
    shape: 'password query parameter',
    where: 'url',
    text: 'https://api.weather.example/v1/forecast?q=Berlin&access_token=wx9FAKE8a7b6c5d4e3f2&units=metric',
    secrets: ['wx9FAKE8a7b6c5d4e3f2'],
  },
  // ── .env style ──
  {
    name: '.env file with several secrets',
    shape: '.env secret',
    where: 'tool-input',
    text: `# local settings\nNODE_ENV=development\nPORT=3000\nDATABASE_PASSWORD=devFAKEpass\nSESSION_SECRET="a5f1c3e7FAKE9b2d4f6a8c0e2"\nSENTRY_DSN=https://FAKE1234abcd@o12345.ingest.sentry.io/67890\nMAILGUN_DOMAIN=mg.acme.dev\nINTERNAL_SERVICE=svcFAKE0x99secret`,
    secrets: ['devFAKEpass', 'a5f1c3e7FAKE9b2d4f6a8c0e2', 'svcFAKE0x99secret', 'FAKE1234abcd@o12345'],
  },
  {
    name: 'inline env var before a command',
    shape: '.env secret',
    where: 'command',
    text: 'DEPLOY_TOKEN=dtFAKE1x2y3z4w5v6u7t npm run deploy -- --env=staging',
    secrets: ['dtFAKE1x2y3z4w5v6u7t'],
  },
  {
    name: 'docker run -e',
    shape: '.env secret',
    where: 'command',
    text: 'docker run --rm -e DB_PASSWORD=DockerFAKE7 -e REDIS_URL=redis://cache:6379 -p 8080:8080 acme/api:latest',
    secrets: ['DockerFAKE7'],
  },
  {
    name: 'innocuously named env var with a random value',
    shape: 'generated value under an innocuous name',
    where: 'command',
    text: 'export ACME_CONNECT="Zq5Wn2Bv6Ck1FAKE" && ./bin/sync',
    secrets: ['Zq5Wn2Bv6Ck1FAKE'],
  },
  {
    name: 'a .env written with printf escapes',
    shape: '.env secret',
    where: 'command',
    text: "printf 'APP_NAME=shop\\nDB_PASSWORD=PrintfFAKE9\\nSTRIPE_KEY=sk_test_FAKE51HqLyjWDarjtT1z\\n' > .env",
    secrets: ['PrintfFAKE9', 'sk_test_FAKE51HqLyjWDarjtT1z'],
  },
  {
    name: 'a single-quoted password that starts with a dollar sign',
    shape: '.env secret',
    where: 'command',
    text: "SMTP_PASSWORD='$ecretP4ssFAKE' ./send-report.sh",
    secrets: ['$ecretP4ssFAKE', 'ecretP4ssFAKE'],
  },
  {
    name: 'PGPASSWORD prefix',
    shape: '.env secret',
    where: 'command',
    text: 'PGPASSWORD=pgFAKE-2024 psql -h db.acme.dev -U app -d orders -c "select 1"',
    secrets: ['pgFAKE-2024'],
  },
  {
    name: 'Windows set command',
    shape: '.env secret',
    where: 'command',
    text: 'set OPENROUTER_KEY=or-FAKE-v1-8f7e6d5c4b3a2f1e0d9c && node agent.js',
    secrets: ['or-FAKE-v1-8f7e6d5c4b3a2f1e0d9c'],
  },
];

export const writtenBenignCases: BenignCase[] = [
  { name: 'absolute path with key in the file name', text: '/home/me/src/key_utils.ts' },
  { name: 'relative path with auth and token', text: 'src/auth/token-store.ts' },
  {
    name: 'TypeScript error with a path and a line',
    text: "src/auth/token-store.ts:42:7 - error TS2345: Argument of type 'string' is not assignable to parameter of type 'Token'.",
  },
  { name: 'token from a function call', text: 'const token = getToken();' },
  { name: 'a key read through a chain of calls', text: 'const apiKey=config.get(name).trim();' },
  { name: 'a password read by a call, statement ends', text: 'password=readPassword();next()' },
  { name: 'a list of settings glued by semicolons', text: 'Server=db.acme.dev;Port=5432;Password=$DB_PASSWORD;Database=orders' },
  { name: 'a query string after a token reference', text: 'curl "https://api.acme.dev/v1/items?token=$API_TOKEN&page=2&limit=50"' },
  { name: 'an AWS key id and the git commit that rotated it', text: 'rotated [REDACTED:aws-key] in 3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a, see the runbook' },
  { name: 'a GCP key file that names its fields only', text: 'a service account file has "type", "project_id", "private_key_id", "private_key" and "client_email"' },
  { name: 'tokenizer', text: 'const tokenizer = new Tokenizer({ lowercase: true, maxTokens: 512 });' },
  {
    name: 'keyof and a key parameter',
    text: 'function get<T, K extends keyof T>(obj: T, key: K): T[K] {\n  return obj[key];\n}',
  },
  { name: 'prose with monkey and secretary', text: "The monkey stole the secretary's keyboard; nobody knows the password policy." },
  { name: 'git commit', text: 'git commit -m "fix auth token refresh race"' },
  { name: 'npm test', text: 'npm test' },
  { name: 'PATH extension', text: 'PATH=$PATH:/usr/local/bin' },
  { name: 'export PATH with quotes', text: 'export PATH="$HOME/.local/bin:$PATH"' },
  { name: 'plain URL', text: 'https://github.com/anthropics/claude-code/issues/1234#issuecomment-987654321' },
  { name: 'URL with query and fragment', text: 'https://example.com/docs/auth?page=2&sort=asc#token-refresh' },
  { name: 'UUID', text: 'session 550e8400-e29b-41d4-a716-446655440000 ended' },
  { name: 'git SHA', text: 'git checkout d3be5c3a9f4e2b1c0d8e7f6a5b4c3d2e1f0a9b8c' },
  {
    name: 'markdown notes on auth',
    text: '## Auth\n\n- Tokens are refreshed by `refreshToken()` in `src/auth/session.ts`.\n- **Never** log the API key; read it from `process.env.API_KEY`.',
  },
  { name: 'interface with token fields', text: 'interface Session {\n  token: string;\n  refreshToken?: string;\n  expiresAt: number;\n}' },
  { name: 'Python reading a key from the environment', text: 'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)' },
  { name: 'getpass prompt', text: 'password = getpass.getpass("Password: ")' },
  { name: 'Bearer prefix check', text: 'if (!authHeader?.startsWith("Bearer ")) return res.status(401).end();' },
  { name: 'template-literal Authorization header', text: 'headers: { Authorization: `Bearer ${token}` },' },
  { name: 'Authorization header from an env var', text: 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user' },
  { name: 'docker uid:gid', text: 'docker run --rm -u 1000:1000 -v "$PWD":/app -w /app node:20 npm test' },
  { name: 'CI and PORT env prefixes', text: 'CI=true PORT=3000 DEBUG=0 npm test -- --coverage' },
  { name: 'public key listing', text: 'ls -la ~/.ssh && cat ~/.ssh/id_ed25519.pub' },
  { name: 'max_tokens settings', text: '{"model": "claude-haiku-4-5", "max_tokens": 1024, "temperature": 0}' },
  { name: 'token URL in YAML', text: 'oauth:\n  token_url: https://oauth2.googleapis.com/token\n  auth_method: client_secret_post' },
  { name: 'fetch credentials include', text: "await fetch(url, { method: 'POST', credentials: 'include', body })" },
  { name: 'prose about rotating keys', text: 'We should rotate the API key every 90 days and keep secrets in Vault, not in .env files.' },
  { name: 'kubectl get secret', text: 'kubectl get secret db-credentials -n prod -o yaml' },
  { name: 'git push -u', text: 'git push -u origin feature/auth-tokens' },
  { name: 'SQL with password_hash', text: 'SELECT id, email, password_hash FROM users WHERE email = $1 LIMIT 1;' },
  { name: 'ssh clone URL', text: 'git clone git@github.com:acme/payments-service.git' },
  { name: 'generating a token in Python', text: 'python -c "import secrets; print(secrets.token_hex(16))"' },
  { name: 'connection refused', text: 'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)' },
  { name: 'undefined token property', text: "TypeError: Cannot read properties of undefined (reading 'token')" },
  { name: 'JWT error name', text: 'TokenExpiredError: jwt expired' },
  { name: 'memory index line', text: '- [auth-flow.md](auth-flow.md) — how login tokens are refreshed and where secrets live' },
  { name: 'token flag in a sentence', text: 'Use the --token flag to pass your token, or set GH_TOKEN in CI.' },
  { name: 'npm script named auth:login', text: '"scripts": { "test": "vitest run", "auth:login": "node scripts/login.js" }' },
  { name: 'self.token = token', text: 'def __init__(self, token):\n    self.token = token\n    self.api_key = None' },
  { name: 'placeholder values', text: 'API_KEY=${API_KEY}\nDB_PASSWORD=$DB_PASSWORD\npassword: "<your-password>"\ntoken: ${{ secrets.GITHUB_TOKEN }}' },
  { name: 'scikit-learn install', text: 'pip install scikit-learn pandas && python train.py --max-depth 8' },
  { name: 'React key prop and primary key', text: '<Row key={item.id} />\nid INTEGER PRIMARY KEY, primary_key: true' },
  { name: 'TypeScript type union of token types', text: 'type TokenReturnValue = TokenOrValue | TokenOrValue[] | RawValue | void;' },
  { name: 'a constant naming a property key', text: 'export declare const ssrImportKey = "__vite_ssr_import__";' },
  { name: 'DOM key constants', text: 'readonly DOM_KEY_LOCATION_LEFT: 0x01;\nreadonly DOM_KEY_LOCATION_RIGHT: 0x02;' },
  { name: 'a LevelDB batch with a sequence key', text: "await db.batch([{ type: 'put', key: 'seq:0000000042', value: event }]);" },
  { name: 'generic default with PropertyKey', text: 'brand<T extends PropertyKey = PropertyKey>(value?: T): this' },
  { name: 'basic JavaScript in prose', text: 'You can test for basic JavaScript types, and Bearer tokens are covered in the next chapter.' },
  { name: 'a marker left by an earlier redaction', text: 'TOKEN=[REDACTED:env] and Authorization: Bearer [REDACTED:bearer]' },
];

export const secretCases: SecretCase[] = [...writtenSecretCases, ...tokenSecretCases(20261101), ...contextSecretCases(14)];

export const benignCases: BenignCase[] = [...writtenBenignCases, ...ordinaryTexts];

/** One case of each shape, for tests that pay a process per case. */
export const secretCasePerShape: SecretCase[] = secretCases.filter((c, i) => secretCases.findIndex((d) => d.shape === c.shape) === i);
