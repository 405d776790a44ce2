/**
 * Vendor tokens, generated from a seed in each vendor's documented shape (lengths and
 * alphabets as secretlint's recommended preset and the vendors describe them). Every one is
 * fake. Each shape appears three times: once where a variable name would give it away, twice
 * where only its own shape can.
 */
import type { SecretCase, SecretWhere } from './redaction-corpus.js';
import { ALNUM, BASE64, DIGITS, HEX, LOWER_ALNUM, Seeded, UPPER_ALNUM, URL_SAFE } from './redaction-random.js';

interface TokenShape {
  shape: string;
  vendor: string;
  /** The variable people keep it in. */
  env: string;
  make(r: Seeded): string;
}

const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';

const SHAPES: TokenShape[] = [
  { shape: 'openai-project-key', vendor: 'OpenAI', env: 'OPENAI_API_KEY', make: (r) => `sk-proj-${r.chars(URL_SAFE, 74)}T3BlbkFJ${r.chars(URL_SAFE, 74)}` },
  { shape: 'anthropic-key', vendor: 'Anthropic', env: 'ANTHROPIC_API_KEY', make: (r) => `sk-ant-api03-${r.chars(URL_SAFE, 93)}AA` },
  { shape: 'github-classic-token', vendor: 'GitHub', env: 'GH_TOKEN', make: (r) => `ghp_${r.chars(ALNUM, 36)}` },
  { shape: 'github-fine-grained-token', vendor: 'GitHub', env: 'GITHUB_TOKEN', make: (r) => `github_pat_${r.chars(ALNUM, 22)}_${r.chars(ALNUM, 59)}` },
  { shape: 'github-app-token', vendor: 'GitHub', env: 'GITHUB_APP_TOKEN', make: (r) => `ghs_${r.chars(ALNUM, 36)}` },
  { shape: 'gitlab-pat', vendor: 'GitLab', env: 'GITLAB_TOKEN', make: (r) => `glpat-${r.chars(URL_SAFE, 20)}` },
  { shape: 'gitlab-runner-token', vendor: 'GitLab', env: 'RUNNER_REGISTRATION', make: (r) => `GR1348941${r.chars(URL_SAFE, 20)}` },
  { shape: 'slack-bot-token', vendor: 'Slack', env: 'SLACK_BOT_TOKEN', make: (r) => `xoxb-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 13)}-${r.chars(ALNUM, 24)}` },
  { shape: 'slack-app-token', vendor: 'Slack', env: 'SLACK_APP_TOKEN', make: (r) => `xapp-1-A${r.chars(UPPER_ALNUM, 10)}-${r.chars(DIGITS, 13)}-${r.chars(HEX, 64)}` },
  { shape: 'aws-access-key-id', vendor: 'AWS', env: 'AWS_ACCESS_KEY_ID', make: (r) => `AKIA${r.chars(UPPER_ALNUM, 16)}` },
  { shape: 'aws-temporary-key-id', vendor: 'AWS', env: 'AWS_ACCESS_KEY_ID', make: (r) => `ASIA${r.chars(UPPER_ALNUM, 16)}` },
  { shape: 'google-api-key', vendor: 'Google Maps', env: 'GOOGLE_MAPS_KEY', make: (r) => `AIza${r.chars(URL_SAFE, 35)}` },
  { shape: 'google-oauth-access-token', vendor: 'Google', env: 'GOOGLE_ACCESS_TOKEN', make: (r) => `ya29.${r.chars(URL_SAFE, 120)}` },
  { shape: 'google-client-secret', vendor: 'Google', env: 'GOOGLE_CLIENT_SECRET', make: (r) => `GOCSPX-${r.chars(URL_SAFE, 28)}` },
  { shape: 'google-refresh-token', vendor: 'Google', env: 'GOOGLE_REFRESH_TOKEN', make: (r) => `1//0${r.chars(URL_SAFE, 100)}` },
  { shape: 'npm-token', vendor: 'npm', env: 'NPM_TOKEN', make: (r) => `npm_${r.chars(ALNUM, 36)}` },
  { shape: 'huggingface-token', vendor: 'Hugging Face', env: 'HF_TOKEN', make: (r) => `hf_${r.chars(ALNUM, 34)}` },
  { shape: 'sendgrid-key', vendor: 'SendGrid', env: 'SENDGRID_API_KEY', make: (r) => `SG.${r.chars(URL_SAFE, 22)}.${r.chars(URL_SAFE, 43)}` },
  { shape: 'pypi-token', vendor: 'PyPI', env: 'TWINE_PASSWORD', make: (r) => `pypi-AgEIcHlwaS5vcmc${r.chars(URL_SAFE, 70)}` },
  { shape: 'digitalocean-token', vendor: 'DigitalOcean', env: 'DIGITALOCEAN_TOKEN', make: (r) => `dop_v1_${r.chars(HEX, 64)}` },
  { shape: 'shopify-token', vendor: 'Shopify', env: 'SHOPIFY_ADMIN_TOKEN', make: (r) => `shpat_${r.chars(HEX, 32)}` },
  { shape: 'stripe-secret-key', vendor: 'Stripe', env: 'STRIPE_SECRET_KEY', make: (r) => `sk_live_${r.chars(ALNUM, 99)}` },
  { shape: 'stripe-webhook-secret', vendor: 'Stripe', env: 'STRIPE_WEBHOOK_SECRET', make: (r) => `whsec_${r.chars(ALNUM, 32)}` },
  { shape: 'docker-pat', vendor: 'Docker Hub', env: 'DOCKERHUB_TOKEN', make: (r) => `dckr_pat_${r.chars(URL_SAFE, 27)}` },
  { shape: 'vault-token', vendor: 'Vault', env: 'VAULT_TOKEN', make: (r) => `hvs.${r.chars(URL_SAFE, 90)}` },
  { shape: 'groq-key', vendor: 'Groq', env: 'GROQ_API_KEY', make: (r) => `gsk_${r.chars(ALNUM, 52)}` },
  { shape: 'age-secret-key', vendor: 'age', env: 'SOPS_AGE_KEY', make: (r) => `AGE-SECRET-KEY-1${r.chars(BECH32, 58)}` },
  { shape: 'sentry-org-token', vendor: 'Sentry', env: 'SENTRY_AUTH_TOKEN', make: (r) => `sntrys_eyJ${r.chars(BASE64, 100)}_${r.chars(ALNUM, 43)}` },
  { shape: 'atlassian-api-token', vendor: 'Jira', env: 'JIRA_API_TOKEN', make: (r) => `ATATT3xFfGF0${r.chars(URL_SAFE, 170)}=${r.chars(HEX, 8).toUpperCase()}` },
  { shape: 'bitbucket-app-password', vendor: 'Bitbucket', env: 'BITBUCKET_APP_PASSWORD', make: (r) => `ATBB${r.chars(ALNUM, 32)}` },
  { shape: 'databricks-token', vendor: 'Databricks', env: 'DATABRICKS_TOKEN', make: (r) => `dapi${r.chars(HEX, 32)}` },
  { shape: 'linear-api-key', vendor: 'Linear', env: 'LINEAR_API_KEY', make: (r) => `lin_api_${r.chars(ALNUM, 40)}` },
  { shape: 'notion-token', vendor: 'Notion', env: 'NOTION_TOKEN', make: (r) => `ntn_${r.chars(DIGITS, 11)}${r.chars(ALNUM, 35)}` },
  { shape: 'grafana-service-token', vendor: 'Grafana', env: 'GRAFANA_TOKEN', make: (r) => `glsa_${r.chars(ALNUM, 32)}_${r.chars(HEX, 8)}` },
  { shape: 'grafana-cloud-token', vendor: 'Grafana Cloud', env: 'GRAFANA_CLOUD_TOKEN', make: (r) => `glc_${r.chars(BASE64, 120)}=` },
  { shape: 'onepassword-service-token', vendor: '1Password', env: 'OP_SERVICE_ACCOUNT_TOKEN', make: (r) => `ops_eyJ${r.chars(BASE64, 240)}` },
  { shape: 'vercel-token', vendor: 'Vercel', env: 'VERCEL_TOKEN', make: (r) => `vcp_${r.chars(ALNUM, 24)}` },
  { shape: 'figma-token', vendor: 'Figma', env: 'FIGMA_TOKEN', make: (r) => `figd_${r.chars(URL_SAFE, 40)}` },
  { shape: 'cloudflare-token', vendor: 'Cloudflare', env: 'CLOUDFLARE_API_TOKEN', make: (r) => `cfut_${r.chars(ALNUM, 40)}${r.chars(HEX, 8)}` },
  { shape: 'tailscale-auth-key', vendor: 'Tailscale', env: 'TS_AUTHKEY', make: (r) => `tskey-auth-${r.chars(ALNUM, 12)}-${r.chars(ALNUM, 32)}` },
  { shape: 'mailgun-key', vendor: 'Mailgun', env: 'MAILGUN_API_KEY', make: (r) => `key-${r.chars(HEX, 32)}` },
  { shape: 'mailchimp-key', vendor: 'Mailchimp', env: 'MAILCHIMP_API_KEY', make: (r) => `${r.chars(HEX, 32)}-us${1 + r.int(20)}` },
  { shape: 'square-access-token', vendor: 'Square', env: 'SQUARE_ACCESS_TOKEN', make: (r) => `EAAA${r.chars(URL_SAFE, 60)}` },
  { shape: 'telegram-bot-token', vendor: 'Telegram', env: 'TELEGRAM_BOT_TOKEN', make: (r) => `${1 + r.int(9)}${r.chars(DIGITS, 9)}:AA${r.chars(URL_SAFE, 33)}` },
  { shape: 'discord-bot-token', vendor: 'Discord', env: 'DISCORD_BOT_TOKEN', make: (r) => `M${r.chars(ALNUM, 25)}.${r.chars(URL_SAFE, 6)}.${r.chars(URL_SAFE, 38)}` },
  { shape: 'twitter-bearer-token', vendor: 'X', env: 'TWITTER_BEARER_TOKEN', make: (r) => `${'A'.repeat(21)}${r.chars(`${ALNUM}%`, 80)}` },
  { shape: 'alibaba-access-key', vendor: 'Alibaba Cloud', env: 'ALIBABA_CLOUD_ACCESS_KEY_ID', make: (r) => `LTAI${r.chars(ALNUM, 20)}` },
  { shape: 'postman-key', vendor: 'Postman', env: 'POSTMAN_API_KEY', make: (r) => `PMAK-${r.chars(HEX, 24)}-${r.chars(HEX, 34)}` },
  { shape: 'doppler-token', vendor: 'Doppler', env: 'DOPPLER_TOKEN', make: (r) => `dp.pt.${r.chars(ALNUM, 43)}` },
  { shape: 'pulumi-token', vendor: 'Pulumi', env: 'PULUMI_ACCESS_TOKEN', make: (r) => `pul-${r.chars(HEX, 40)}` },
  { shape: 'terraform-cloud-token', vendor: 'Terraform Cloud', env: 'TFE_TOKEN', make: (r) => `${r.chars(ALNUM, 14)}.atlasv1.${r.chars(URL_SAFE, 67)}` },
  { shape: 'supabase-token', vendor: 'Supabase', env: 'SUPABASE_ACCESS_TOKEN', make: (r) => `sbp_${r.chars(HEX, 40)}` },
  { shape: 'netlify-token', vendor: 'Netlify', env: 'NETLIFY_AUTH_TOKEN', make: (r) => `nfp_${r.chars(ALNUM, 36)}` },
  { shape: 'replicate-token', vendor: 'Replicate', env: 'REPLICATE_API_TOKEN', make: (r) => `r8_${r.chars(ALNUM, 37)}` },
  { shape: 'perplexity-key', vendor: 'Perplexity', env: 'PERPLEXITY_API_KEY', make: (r) => `pplx-${r.chars(ALNUM, 48)}` },
  { shape: 'xai-key', vendor: 'xAI', env: 'XAI_API_KEY', make: (r) => `xai-${r.chars(ALNUM, 80)}` },
  { shape: 'langsmith-key', vendor: 'LangSmith', env: 'LANGSMITH_API_KEY', make: (r) => `lsv2_pt_${r.chars(HEX, 32)}_${r.chars(HEX, 10)}` },
  { shape: 'newrelic-key', vendor: 'New Relic', env: 'NEW_RELIC_API_KEY', make: (r) => `NRAK-${r.chars(UPPER_ALNUM, 27)}` },
  { shape: 'airtable-token', vendor: 'Airtable', env: 'AIRTABLE_TOKEN', make: (r) => `pat${r.chars(ALNUM, 14)}.${r.chars(HEX, 64)}` },
  { shape: 'planetscale-token', vendor: 'PlanetScale', env: 'PLANETSCALE_SERVICE_TOKEN', make: (r) => `pscale_tkn_${r.chars(URL_SAFE, 43)}` },
  { shape: 'heroku-api-key', vendor: 'Heroku', env: 'HEROKU_API_KEY', make: (r) => `HRKU-${r.chars(URL_SAFE, 60)}` },
  { shape: 'rubygems-key', vendor: 'RubyGems', env: 'GEM_HOST_API_KEY', make: (r) => `rubygems_${r.chars(HEX, 48)}` },
  { shape: 'buildkite-token', vendor: 'Buildkite', env: 'BUILDKITE_API_TOKEN', make: (r) => `bkua_${r.chars(HEX, 40)}` },
  { shape: 'azure-client-secret', vendor: 'Azure AD', env: 'AZURE_CLIENT_SECRET', make: (r) => `${r.chars(ALNUM, 3)}8Q~${r.chars(`${ALNUM}_.~-`, 34)}` },
  { shape: 'jwt', vendor: 'our API', env: 'API_JWT', make: (r) => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${r.chars(URL_SAFE, 60)}.${r.chars(URL_SAFE, 43)}` },
  { shape: 'mapbox-secret-token', vendor: 'Mapbox', env: 'MAPBOX_SECRET_TOKEN', make: (r) => `sk.eyJ1${r.chars(URL_SAFE, 60)}.${r.chars(URL_SAFE, 22)}` },
  { shape: 'prefect-key', vendor: 'Prefect', env: 'PREFECT_API_KEY', make: (r) => `pnu_${r.chars(LOWER_ALNUM, 36)}` },
];

// Where only the token's own shape gives it away: no secret-like name next to it.
const BARE: Array<[SecretWhere, (t: string, vendor: string) => string]> = [
  ['prompt', (t, v) => `I pasted ${t} into the ${v} settings page and it still says unauthorized — what am I missing?`],
  ['command', (t) => `printf '%s\\n' ${t} | ./bin/check-scopes --verbose`],
  ['tool-input', (t) => `{"command":"node scripts/sync.js","args":["--profile","ci","${t}"]}`],
  ['error', (t, v) => `Error: ${v} rejected ${t} (401 Unauthorized) while calling GET /v2/projects`],
  ['url', (t) => `https://dashboard.acme-internal.dev/connect?state=8f1c2&value=${t}`],
];

export function tokenSecretCases(seed: number): SecretCase[] {
  const r = new Seeded(seed);
  return SHAPES.flatMap((s, i) => {
    const named = s.make(r);
    const cases: SecretCase[] = [
      { name: `${s.shape} in a .env line`, shape: s.shape, where: 'command', text: `${s.env}=${named} npm run deploy`, secrets: [named] },
    ];
    for (const k of [i % BARE.length, (i + 2) % BARE.length]) {
      const [where, context] = BARE[k]!;
      const token = s.make(r);
      cases.push({ name: `${s.shape}, bare, in a ${where}`, shape: s.shape, where, text: context(token, s.vendor), secrets: [token] });
    }
    return cases;
  });
}
