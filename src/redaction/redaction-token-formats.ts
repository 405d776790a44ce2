/**
 * Credentials recognisable by their own shape, wherever they stand: vendor token prefixes and
 * key blocks. Shapes follow the vendors' documentation and secretlint's recommended preset
 * (read, not imported: a hook cannot afford to load it). Bundled into hooks.
 */
import { marker } from './redaction-marker.js';
import { anyOf, lazy, R, START, type Rule } from './redaction-rule.js';

/**
 * Kind, the pattern, and literals every match holds (lower case). Each pattern starts with a
 * literal or a bounded run, and none can start with a marker's kind word, so a marker never
 * matches again.
 */
export const TOKEN_FORMATS: Array<[kind: string, source: string, literals: string[]]> = [
  ['jwt', R`eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*(?:\.[\w-]+){0,2}`, ['eyj']],
  // OpenAI and Anthropic; told apart below.
  ['openai-key', R`sk-[\w-]{20,}`, ['sk-']],
  ['mapbox-token', R`sk\.eyJ[\w-]{20,}\.[\w-]{20,}`, ['sk.eyj']],
  ['stripe-key', R`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}`, ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'pk_live_', 'pk_test_', 'whsec_']],
  ['github-token', R`gh[pousr]_\w{30,}(?:\.[\w-]+){0,2}|github_pat_\w{30,}`, ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_']],
  ['gitlab-token', R`gl(?:pat|dt|rt|ptt|cbt|imt|oas|ft|soat|agent|ffct)-[\w-]{20,}|GR1348941[\w-]{20,}`, ['gl', 'gr1348941']],
  ['slack-token', R`xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}`, ['xox', 'xapp-']],
  ['aws-key', R`(?:AKIA|ASIA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`, ['akia', 'asia', 'a3t']],
  ['google-api-key', R`AIza[\w-]{30,}`, ['aiza']],
  ['google-oauth', R`ya29\.[\w-]{20,}|GOCSPX-[\w-]{20,}|1\/\/0[\w-]{30,}`, ['ya29.', 'gocspx-', '1//0']],
  ['npm-token', R`npm_[A-Za-z0-9]{30,}`, ['npm_']],
  ['hf-token', R`hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,}`, ['hf_', 'api_org_']],
  ['sendgrid-key', R`SG\.[\w-]{16,}\.[\w-]{16,}`, ['sg.']],
  ['pypi-token', R`pypi-AgE[\w-]{50,}`, ['pypi-age']],
  ['digitalocean-token', R`do[opr]_v1_[a-f0-9]{64}`, ['_v1_']],
  ['shopify-token', R`shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,64}`, ['shpat_', 'shpca_', 'shppa_', 'shpss_']],
  ['docker-token', R`dckr_(?:pat|oat)_[\w-]{20,}`, ['dckr_']],
  ['vault-token', R`hv[sbr]\.[\w-]{24,}`, ['hvs.', 'hvb.', 'hvr.']],
  ['groq-key', R`gsk_[A-Za-z0-9]{40,}`, ['gsk_']],
  ['age-key', R`AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{50,}`, ['age-secret-key-1']],
  ['sentry-token', R`sntr(?:ys|yu)_[\w+\/=-]{30,}`, ['sntrys_', 'sntryu_']],
  ['atlassian-token', R`AT(?:ATT|CTT)[\w=-]{30,}|ATBB[A-Za-z0-9]{28,}`, ['atatt', 'atctt', 'atbb']],
  ['databricks-token', R`dapi[a-f0-9]{32}(?:-\d)?`, ['dapi']],
  ['linear-key', R`lin_(?:api|oauth)_[A-Za-z0-9]{32,}`, ['lin_']],
  ['notion-token', R`ntn_\d{11}[A-Za-z0-9]{30,}|secret_[A-Za-z0-9]{43}(?![\w-])`, ['ntn_', 'secret_']],
  ['grafana-token', R`glc_[A-Za-z0-9+\/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`, ['glc_', 'glsa_']],
  ['onepassword-token', R`ops_eyJ[\w+\/=]{50,}`, ['ops_eyj']],
  ['vercel-token', R`vc[pikar]_[A-Za-z0-9]{20,}`, ['vcp_', 'vci_', 'vck_', 'vca_', 'vcr_']],
  ['figma-token', R`figd_[\w-]{30,}`, ['figd_']],
  ['cloudflare-token', R`cf(?:k|ut|at)_[A-Za-z0-9]{40,}`, ['cfk_', 'cfut_', 'cfat_']],
  ['tailscale-key', R`tskey-[a-z]{2,20}-\w{8,40}-\w{16,}`, ['tskey-']],
  ['mailgun-key', R`key-[0-9a-f]{32}(?![\w-])`, ['key-']],
  ['mailchimp-key', R`[0-9a-f]{32}-us\d{1,2}(?!\w)`, ['-us']],
  ['square-token', R`sq0(?:atp|csp)-[\w-]{22,}|EAAA[\w-]{60,}`, ['sq0', 'eaaa']],
  ['facebook-token', R`EAA[A-Za-z0-9]{80,}`, ['eaa']],
  ['telegram-bot-token', R`\d{8,10}:AA[\w-]{33}(?![\w-])`, [':aa']],
  ['discord-bot-token', R`[MNO][A-Za-z\d]{23,25}\.[\w-]{6}\.[\w-]{27,38}`, ['.']],
  ['twitter-bearer', R`A{20,22}[A-Za-z0-9%]{30,}`, ['aaaaaaaaaaaaaaaaaaaa']],
  ['alibaba-key', R`LTAI[A-Za-z0-9]{12,30}(?![A-Za-z0-9])`, ['ltai']],
  ['tencent-key', R`AKID[A-Za-z0-9]{32}`, ['akid']],
  ['postman-key', R`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, ['pmak-']],
  ['doppler-token', R`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`, ['dp.']],
  ['pulumi-token', R`pul-[a-f0-9]{40}`, ['pul-']],
  ['terraform-token', R`[A-Za-z0-9]{14}\.atlasv1\.[\w-]{60,}`, ['.atlasv1.']],
  ['flyio-token', R`fo1_[\w-]{39,}|fm[12][ar]?_[\w+\/=-]{40,}`, ['fo1_', 'fm1', 'fm2']],
  ['supabase-key', R`sbp_[a-f0-9]{40}|sb_secret_[\w-]{20,}`, ['sbp_', 'sb_secret_']],
  ['netlify-token', R`nfp_[A-Za-z0-9]{36}`, ['nfp_']],
  ['render-key', R`rnd_[A-Za-z0-9]{32}`, ['rnd_']],
  ['replicate-token', R`r8_[A-Za-z0-9]{37}`, ['r8_']],
  ['perplexity-key', R`pplx-[A-Za-z0-9]{48}`, ['pplx-']],
  ['xai-key', R`xai-[A-Za-z0-9]{70,}`, ['xai-']],
  ['langsmith-key', R`lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`, ['lsv2_']],
  ['newrelic-key', R`NR(?:AK|II)-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}`, ['nrak-', 'nrii-', 'nrjs-']],
  ['airtable-token', R`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`, ['pat']],
  ['dynatrace-token', R`dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}`, ['dt0c01.']],
  ['planetscale-token', R`pscale_(?:tkn|pw|oauth)_[\w.-]{32,}`, ['pscale_']],
  ['heroku-key', R`HRKU-[\w-]{40,}`, ['hrku-']],
  ['rubygems-key', R`rubygems_[a-f0-9]{48}`, ['rubygems_']],
  ['clojars-token', R`CLOJARS_[a-z0-9]{60}`, ['clojars_']],
  ['contentful-token', R`CFPAT-[\w-]{43}`, ['cfpat-']],
  ['buildkite-token', R`bkua_[a-f0-9]{40}`, ['bkua_']],
  ['prefect-key', R`pnu_[a-z0-9]{36}`, ['pnu_']],
  ['sourcegraph-token', R`sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}`, ['sgp_']],
  ['shippo-token', R`shippo_(?:live|test)_[a-f0-9]{40}`, ['shippo_']],
  ['jfrog-token', R`AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,}`, ['akcp', 'cmvmdgtuojaxoj']],
  ['firebase-key', R`AAAA[\w-]{7}:[\w-]{140}`, ['aaaa']],
  ['azure-client-secret', R`[\w~.-]{3}\dQ~[\w~.-]{31,34}`, ['q~']],
];

/**
 * One rule per format rather than one alternation of all: a hook redacts a few hundred
 * characters in a fresh process, where compiling a 70-way pattern costs more than running it;
 * a format whose literals are absent is never compiled.
 */
export const tokenFormatRules: Rule[] = TOKEN_FORMATS.map(([kind, source, literals]) => {
  const pattern = lazy(() => new RegExp(R`${START}(?:${source})`, 'g'));
  return {
    name: `token:${kind}`,
    get pattern() {
      return pattern();
    },
    replace: (_g, match, offset, input) => (kind === 'openai-key' ? openAiKind(match, input.charAt(offset + match.length)) : marker(kind)),
    needs: (_lower, tokens) => hasAny(tokens(), literals),
  };
});

/**
 * An AWS secret access key written after its key id (`key id AKIA…, secret wJalr…`, `here are
 * my keys: AKIA… <secret>`): 40 characters of base64 with nothing to say what it is but the key
 * id just before it. By the time this runs the key id is already a marker, so the marker counts
 * as the key id too. Alone, 40 such characters are too common (a git SHA is 40 hex digits) to
 * take; after a key id they are the pair's other half. A mix of cases and a digit or `/+`, as
 * AWS makes them: a hex digest nearby stays.
 */
export const awsSecretAfterKeyIdRule: Rule = {
  name: 'aws-secret-after-key-id',
  pattern: new RegExp(
    R`(?<lead>(?:\[REDACTED:aws-key\]|(?:AKIA|ASIA)[A-Z0-9]{16})[\s\S]{0,120}?)(?<![A-Za-z0-9+\/=])(?<cred>[A-Za-z0-9+\/]{40})(?![A-Za-z0-9+\/=])`,
    'g',
  ),
  replace: (g, match) => (awsSecretShaped(g.cred!) ? g.lead! + marker('aws-secret') : match),
  needs: anyOf('[redacted:aws-key]', 'akia', 'asia'),
};

function awsSecretShaped(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /[\d+\/]/.test(value);
}

// Every format's literals, found in one scan rather than seventy: longest first, each match
// also counting the shorter literals it contains (`glc_` holds `gl`); a lookahead, so that
// overlapping literals are all seen.
const LITERALS = [...new Set(TOKEN_FORMATS.flatMap(([, , literals]) => literals))].sort((a, b) => b.length - a.length);
// Only long texts need it, and a hook redacts a few hundred characters: built on first use.
const contained = lazy(() => new Map(LITERALS.map((literal) => [literal, LITERALS.filter((other) => literal.includes(other))])));
const literalScan = lazy(
  () => new RegExp(`(?=(${LITERALS.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}))`, 'g'),
);

/**
 * The token-format literals `lower` (a text in lower case) holds. A short text is searched once
 * per literal: compiling the scan would cost a hook more than it saves.
 */
export function tokenLiteralsIn(lower: string): Set<string> {
  if (lower.length < 4096) return new Set(LITERALS.filter((literal) => lower.includes(literal)));
  const found = new Set<string>();
  const within = contained();
  for (const m of lower.matchAll(literalScan())) for (const literal of within.get(m[1]!)!) found.add(literal);
  return found;
}

// OpenAI (`sk-`, `sk-proj-`, `sk-svcacct-`) and Anthropic (`sk-ant-api03-`) share a prefix with
// words: `sk-button-primary-large` is a CSS class and `sk-ecdsa-sha2-nistp256@openssh.com` a key
// type. Generated keys have digits or capitals.
function openAiKind(match: string, next: string): string {
  if (match.startsWith('sk-ant-')) return marker('anthropic-key');
  if (next === '@') return match;
  return /[\dA-Z]/.test(match.slice(3)) ? marker('openai-key') : match;
}

/**
 * A private key block, BEGIN to END, and a PuTTY key file, header to its MAC; with no end, to
 * the end of the text, which may have been cut.
 */
export const keyBlockRule: Rule = {
  name: 'private-key',
  pattern: new RegExp(
    R`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)` +
      R`|PuTTY-User-Key-File-\d{1,2}:[\s\S]*?(?:Private-MAC:[ \t]*[0-9a-fA-F]*|$)`,
    'g',
  ),
  replace: () => marker('private-key'),
  needs: anyOf('-----begin', 'putty-user-key-file-'),
};

/** Whether `found` holds one of `literals`: a loop, for the reason `includesAny` gives. */
function hasAny(found: ReadonlySet<string>, literals: readonly string[]): boolean {
  for (let i = 0; i < literals.length; i++) if (found.has(literals[i]!)) return true;
  return false;
}
