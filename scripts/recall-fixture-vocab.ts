// What the recall evaluation set is made of (scripts/generate-recall-fixtures.ts): six projects
// and the user's global memories, each thing with a gloss that names it without its words, so a
// paraphrase query can ask for it without sharing a word with the memory.

export type EntityKind = 'file' | 'repo' | 'tool' | 'library' | 'service' | 'person' | 'concept' | 'ticket' | 'command';

export interface Thing {
  readonly name: string;
  /** The same thing said in other words (no word of `name` or `alias`). */
  readonly gloss: string;
  /** How a note might call it in passing ("the ledger" for ledger-service). */
  readonly alias?: string;
}

export interface TestSuite extends Thing {
  readonly cmd: string;
  readonly needs: string;
}

export interface Decision {
  readonly chose: string;
  readonly over: string;
  readonly purpose: string;
  readonly why: string;
  /** The question, in other words. */
  readonly gloss: string;
}

export interface Gotcha {
  readonly tool: string;
  readonly bad: string;
  readonly good: string;
  readonly breaks: string;
  readonly gloss: string;
}

export interface Fact {
  readonly name: string;
  readonly description: string;
  readonly body: string;
  readonly type: 'project' | 'feedback' | 'reference' | 'user' | 'value' | 'insight';
  /** A question that shares words with it. */
  readonly ask: string;
  /** The same question in other words. */
  readonly gloss: string;
  readonly entities?: ReadonlyArray<readonly [string, EntityKind]>;
}

export interface ProjectVocab {
  readonly cwd: string;
  readonly components: readonly Thing[];
  readonly people: readonly Thing[];
  readonly files: readonly Thing[];
  readonly tests: readonly TestSuite[];
  readonly envVars: readonly Thing[];
  readonly decisions: readonly Decision[];
  readonly gotchas: readonly Gotcha[];
  readonly dashboards: readonly Thing[];
  readonly tickets: readonly Thing[];
  readonly facts: readonly Fact[];
  /** Questions nothing here answers (topics this project does not have). */
  readonly unanswerable: readonly string[];
}

/** Failures a component can have, said plainly and in other words. */
export const SYMPTOMS: readonly Thing[] = [
  { name: 'deadlock', gloss: 'two jobs waiting on each other forever' },
  { name: 'memory leak', gloss: 'RAM climbing until the OOM killer steps in' },
  { name: 'timezone off-by-one', gloss: 'dates landing on the wrong calendar day' },
  { name: 'race condition', gloss: 'two writers clobbering each other at nearly the same instant' },
  { name: 'N+1 queries', gloss: 'one database round trip per row in a loop' },
  { name: 'stale cache entries', gloss: 'old values served long after they changed' },
  { name: 'retry storm', gloss: 'clients hammering again and again after an outage' },
  { name: 'unicode encoding bug', gloss: 'mangled accented characters' },
  { name: 'connection pool exhaustion', gloss: 'every socket to Postgres busy so new requests hang' },
  { name: 'silent data truncation', gloss: 'long values quietly chopped short' },
  { name: 'flaky ordering', gloss: 'results coming back shuffled between runs' },
  { name: 'double processing', gloss: 'the same message handled twice' },
];

export const PROJECTS: readonly ProjectVocab[] = [
  {
    cwd: '/home/dev/src/payments-api',
    components: [
      { name: 'ledger-service', alias: 'the ledger', gloss: 'the bookkeeping of balances and money movements' },
      { name: 'payout-worker', alias: 'the payout job', gloss: 'what sends merchants their earnings' },
      { name: 'webhook-gateway', alias: 'the webhook receiver', gloss: 'the endpoint Stripe calls back into' },
      { name: 'fx-rates', alias: 'the currency module', gloss: 'exchange conversions between dollars, euros and yen' },
      { name: 'fraud-scorer', alias: 'the risk model', gloss: 'flagging suspicious charges' },
      { name: 'invoice-renderer', alias: 'the PDF invoices', gloss: 'printable bills we email customers' },
    ],
    people: [
      { name: 'Priya', gloss: 'our staff engineer on money movement' },
      { name: 'Marcus', gloss: 'the on-call lead for finance systems' },
      { name: 'Lena', gloss: 'the compliance contact' },
      { name: 'Tomás', gloss: 'the contractor who wrote the first version' },
    ],
    files: [
      { name: 'internal/ledger/posting.go', gloss: 'where double-entry rows get written' },
      { name: 'cmd/payouts/main.go', gloss: 'the entry point of the earnings sender' },
      { name: 'migrations/0044_ledger_entries_account_posted_idx.sql', gloss: 'the schema change adding an index on entries' },
      { name: 'config/stripe.yaml', gloss: 'card processor settings' },
      { name: 'internal/fx/rounding.go', gloss: 'how fractional cents get rounded' },
    ],
    tests: [
      { name: 'integration tests', cmd: 'make test-integration', needs: 'docker compose up postgres kafka', gloss: 'the end-to-end checks against real containers' },
      { name: 'ledger property tests', cmd: 'go test ./internal/ledger -run Prop -count=1', needs: 'nothing external', gloss: 'randomized invariants on balances' },
      { name: 'webhook contract tests', cmd: 'make pact-verify', needs: 'the pact broker token', gloss: 'checks that callbacks match what the processor sends' },
      { name: 'migration tests', cmd: 'go test ./migrations/...', needs: 'a scratch database', gloss: 'schema change verification' },
    ],
    envVars: [
      { name: 'STRIPE_API_KEY', gloss: 'the card processor secret' },
      { name: 'LEDGER_DB_URL', gloss: 'where the bookkeeping database lives' },
      { name: 'KAFKA_BROKERS', gloss: 'the event bus addresses' },
    ],
    decisions: [
      { chose: 'integer cents', over: 'floating point', purpose: 'money amounts', why: 'floats lose precision on sums', gloss: 'why are prices stored as whole numbers of the smallest unit' },
      { chose: 'Kafka', over: 'RabbitMQ', purpose: 'ledger events', why: 'we need replay from an offset', gloss: 'which message bus did we pick and why not the AMQP one' },
      { chose: 'sqlc', over: 'GORM', purpose: 'database access', why: 'generated typed queries, no reflection', gloss: 'why no ORM in the Go code' },
    ],
    gotchas: [
      { tool: 'golangci-lint', bad: '1.55', good: '1.54.2', breaks: 'the exhaustive switch check on enums', gloss: 'the linter upgrade that started failing CI' },
      { tool: 'pgx', bad: 'v5.5.0', good: 'v5.4.3', breaks: 'COPY FROM with numeric columns', gloss: 'the Postgres driver release that broke bulk loading' },
      { tool: 'testcontainers-go', bad: '0.26', good: '0.25', breaks: 'reusing containers between packages', gloss: 'why our throwaway docker fixtures are pinned' },
    ],
    dashboards: [
      { name: 'Grafana payouts latency', gloss: 'the graphs showing how long earnings take to arrive' },
      { name: 'Sentry payments-api project', gloss: 'where crash reports for this service land' },
    ],
    tickets: [
      { name: 'PAY-1423', gloss: 'the rounding complaint from Japanese merchants' },
      { name: 'PAY-1502', gloss: 'the duplicate refund incident' },
      { name: 'PAY-1611', gloss: 'the audit request about reconciliation' },
    ],
    facts: [
      { type: 'project', name: 'Refunds go through the ledger first', description: 'a refund posts a reversing entry before Stripe is called', body: 'Never call Stripe refunds directly; post the reversing ledger entry first so a failed call can be retried idempotently.\n', ask: 'how do refunds get posted', gloss: 'what is the order of operations when we give a customer their money back', entities: [['ledger-service', 'service'], ['Stripe', 'service']] },
      { type: 'feedback', name: 'Use table-driven tests in Go', description: 'new Go tests are table-driven with t.Run subtests', body: 'The user asked for table-driven tests with named subtests; no testify suites.\n', ask: 'table driven go tests style', gloss: 'how should new unit checks be structured in this repo' },
      { type: 'project', name: 'Idempotency keys on every POST', description: 'all mutating endpoints require an Idempotency-Key header', body: 'Clients must send Idempotency-Key; the middleware stores responses for 24 hours.\n', ask: 'idempotency key header requirement', gloss: 'how do we stop a client resending the same charge twice', entities: [['webhook-gateway', 'service']] },
      { type: 'reference', name: 'Stripe API version pinned', description: 'the account is pinned to Stripe API 2023-10-16', body: 'Upgrading the Stripe API version changes webhook payload shapes; coordinate with Priya.\n', ask: 'which stripe api version are we on', gloss: 'what dated release of the card processor interface is our account locked to', entities: [['Stripe', 'service'], ['Priya', 'person']] },
      { type: 'project', name: 'Month-end close freeze', description: 'no deploys to the ledger during the last two business days of a month', body: 'Finance closes the books; a deploy freeze applies to ledger-service and payout-worker.\n', ask: 'deploy freeze at month end', gloss: 'when are we not allowed to ship changes to the bookkeeping system', entities: [['ledger-service', 'service'], ['payout-worker', 'service']] },
      { type: 'insight', name: 'Reconciliation drift comes from FX', description: 'nightly reconciliation mismatches are almost always currency rounding', body: 'When the nightly reconciliation reports drift, check internal/fx/rounding.go before anything else.\n', ask: 'nightly reconciliation drift cause', gloss: 'the usual reason the books do not balance overnight', entities: [['fx-rates', 'service']] },
    ],
    unanswerable: [
      'how do we configure the GraphQL federation gateway',
      'what is the retention policy for mobile push notification tokens',
      'which Tailwind breakpoints does the marketing site use',
      'how do we train the recommendation model on GPUs',
      'where are the iOS provisioning profiles stored',
    ],
  },
  {
    cwd: '/home/dev/src/web-dashboard',
    components: [
      { name: 'ChartPanel', alias: 'the chart widget', gloss: 'the component that draws graphs on screen' },
      { name: 'useQueryParams', alias: 'the URL state hook', gloss: 'keeping filters in the address bar' },
      { name: 'auth-context', alias: 'the session provider', gloss: 'who is logged in, for every page' },
      { name: 'design-tokens', alias: 'the theme package', gloss: 'colors, spacing and typography values' },
      { name: 'DataGrid', alias: 'the table', gloss: 'the spreadsheet-like listing of records' },
      { name: 'i18n-bundle', alias: 'the translations', gloss: 'copy in French, German and Japanese' },
    ],
    people: [
      { name: 'Aiko', gloss: 'the frontend lead' },
      { name: 'Ben', gloss: 'the designer who owns the component library' },
      { name: 'Carla', gloss: 'the accessibility reviewer' },
      { name: 'Dev', gloss: 'the intern working on charts this summer' },
    ],
    files: [
      { name: 'src/components/ChartPanel.tsx', gloss: 'the graph drawing module' },
      { name: 'vite.config.ts', gloss: 'bundler settings' },
      { name: 'playwright.config.ts', gloss: 'browser automation settings' },
      { name: 'src/styles/tokens.css', gloss: 'CSS custom properties for the palette' },
      { name: '.storybook/main.ts', gloss: 'the isolated UI catalogue setup' },
    ],
    tests: [
      { name: 'e2e tests', cmd: 'pnpm playwright test', needs: 'the dev server on port 5173', gloss: 'clicking through real browsers' },
      { name: 'unit tests', cmd: 'pnpm vitest run', needs: 'nothing', gloss: 'fast checks of individual functions and hooks' },
      { name: 'visual regression tests', cmd: 'pnpm chromatic', needs: 'the CHROMATIC_PROJECT_TOKEN', gloss: 'screenshot comparisons of every story' },
      { name: 'accessibility checks', cmd: 'pnpm test:a11y', needs: 'axe-core', gloss: 'screen reader and contrast audits' },
    ],
    envVars: [
      { name: 'VITE_API_BASE_URL', gloss: 'where the backend lives for the browser' },
      { name: 'SENTRY_AUTH_TOKEN', gloss: 'the crash reporting upload secret' },
      { name: 'VITE_FEATURE_FLAGS', gloss: 'toggles for unreleased screens' },
    ],
    decisions: [
      { chose: 'TanStack Query', over: 'Redux', purpose: 'server state', why: 'caching and refetching come built in', gloss: 'why is there no global store for fetched data' },
      { chose: 'pnpm', over: 'npm', purpose: 'package management', why: 'strict node_modules catches phantom dependencies', gloss: 'which installer do we use for JavaScript libraries' },
      { chose: 'CSS modules', over: 'styled-components', purpose: 'styling', why: 'no runtime cost and SSR-safe', gloss: 'why not CSS-in-JS' },
    ],
    gotchas: [
      { tool: 'vite', bad: '5.1.0', good: '5.0.12', breaks: 'the proxy for websocket routes', gloss: 'the bundler release that broke live updates in local development' },
      { tool: 'recharts', bad: '2.10', good: '2.9.3', breaks: 'tooltips on stacked areas', gloss: 'why hover popups vanished from graphs' },
      { tool: 'eslint-plugin-react-hooks', bad: '5.0.0', good: '4.6.0', breaks: 'our custom rule config', gloss: 'the lint plugin we cannot upgrade yet' },
    ],
    dashboards: [
      { name: 'Vercel preview deployments', gloss: 'per-branch staging links' },
      { name: 'Chromatic library', gloss: 'the hosted catalogue of UI screenshots' },
    ],
    tickets: [
      { name: 'WEB-311', gloss: 'the slow first paint on the overview page' },
      { name: 'WEB-342', gloss: 'the broken right-to-left layout' },
      { name: 'WEB-390', gloss: 'the request to export tables to spreadsheets' },
    ],
    facts: [
      { type: 'feedback', name: 'No default exports', description: 'components use named exports only', body: 'The user rejected default exports; they break refactors and auto-imports.\n', ask: 'default exports in components', gloss: 'how should a module expose its React pieces' },
      { type: 'feedback', name: 'Tests use Testing Library queries by role', description: 'prefer getByRole over getByTestId', body: 'Query by role and accessible name; test ids only as a last resort.\n', ask: 'getByRole or test ids', gloss: 'how should UI checks locate elements on the page' },
      { type: 'project', name: 'Dark mode follows the OS setting', description: 'theme is prefers-color-scheme unless the user overrides it', body: 'The override is stored in localStorage under theme; design-tokens exposes both palettes.\n', ask: 'dark mode theme setting', gloss: 'how does the night palette get chosen', entities: [['design-tokens', 'library']] },
      { type: 'reference', name: 'Figma file for the dashboard', description: 'designs live in the Figma file Dashboard 2026', body: 'Ask Ben for edit access; components map one to one with Storybook stories.\n', ask: 'figma dashboard designs', gloss: 'where are the mockups from the designer', entities: [['Ben', 'person']] },
      { type: 'project', name: 'Charts must support 10k points', description: 'ChartPanel downsamples above 10,000 points with LTTB', body: 'Rendering more points froze Safari; downsampling keeps the visual shape.\n', ask: 'chart downsampling many points', gloss: 'what happens when a graph has a huge number of samples', entities: [['ChartPanel', 'library']] },
      { type: 'insight', name: 'Most bundle size is date libraries', description: 'moment and its locales were 40 % of the bundle', body: 'Replacing moment with date-fns cut the main chunk from 900 KB to 540 KB.\n', ask: 'bundle size moment date library', gloss: 'what was bloating the shipped JavaScript the most' },
    ],
    unanswerable: [
      'how do we shard the Kafka topics for payouts',
      'what is the Terraform state backend for the VPC',
      'which CUDA version does the training job need',
      'how do we sign the Android release build',
      'what does the Rust CLI do on SIGPIPE',
    ],
  },
  {
    cwd: '/home/dev/src/ml-pipeline',
    components: [
      { name: 'feature-store', alias: 'the features table', gloss: 'precomputed model inputs kept for reuse' },
      { name: 'train_dag', alias: 'the training DAG', gloss: 'the scheduled job that fits models each night' },
      { name: 'embedding-service', alias: 'the embedder', gloss: 'turning text into vectors' },
      { name: 'label-queue', alias: 'the annotation queue', gloss: 'examples waiting for humans to tag them' },
      { name: 'eval-harness', alias: 'the benchmark runner', gloss: 'scoring candidates against held-out data' },
      { name: 'drift-monitor', alias: 'the drift job', gloss: 'noticing when live inputs stop looking like training inputs' },
    ],
    people: [
      { name: 'Noor', gloss: 'the ML platform owner' },
      { name: 'Oskar', gloss: 'the data engineer for ingestion' },
      { name: 'Ravi', gloss: 'the research scientist on ranking' },
      { name: 'Sofia', gloss: 'the labeling operations manager' },
    ],
    files: [
      { name: 'dags/train_dag.py', gloss: 'the nightly fitting schedule definition' },
      { name: 'pipeline/features.py', gloss: 'input column computations' },
      { name: 'configs/model.yaml', gloss: 'hyperparameters' },
      { name: 'pyproject.toml', gloss: 'Python packaging metadata' },
      { name: 'notebooks/error_analysis.ipynb', gloss: 'the exploratory look at mistakes' },
    ],
    tests: [
      { name: 'pipeline tests', cmd: 'uv run pytest tests/pipeline -x', needs: 'a local MinIO bucket', gloss: 'checks of the data flow steps' },
      { name: 'model smoke test', cmd: 'uv run python -m eval.smoke', needs: 'the small checkpoint in artifacts/', gloss: 'a quick sanity pass on a tiny network' },
      { name: 'schema tests', cmd: 'uv run pytest tests/schemas', needs: 'nothing', gloss: 'column type validation with pandera' },
    ],
    envVars: [
      { name: 'MLFLOW_TRACKING_URI', gloss: 'where experiment runs get logged' },
      { name: 'AWS_PROFILE', gloss: 'which cloud credentials to use' },
      { name: 'CUDA_VISIBLE_DEVICES', gloss: 'which graphics cards a job may use' },
    ],
    decisions: [
      { chose: 'uv', over: 'poetry', purpose: 'Python dependency management', why: 'ten times faster locks and installs', gloss: 'which installer do we use for the Python environment' },
      { chose: 'Parquet', over: 'CSV', purpose: 'training data', why: 'typed columns and column pruning', gloss: 'what on-disk layout do the datasets use' },
      { chose: 'LightGBM', over: 'XGBoost', purpose: 'the ranking model', why: 'faster on our sparse categorical features', gloss: 'which gradient boosting library and why' },
    ],
    gotchas: [
      { tool: 'pandas', bad: '2.2.0', good: '2.1.4', breaks: 'nullable integer joins in features.py', gloss: 'the dataframe upgrade that broke merging' },
      { tool: 'torch', bad: '2.3', good: '2.2.2', breaks: 'deterministic CUDA kernels', gloss: 'why reproducibility failed on the GPU boxes' },
      { tool: 'airflow', bad: '2.9', good: '2.8.4', breaks: 'the KubernetesPodOperator templating', gloss: 'the scheduler release we skipped' },
    ],
    dashboards: [
      { name: 'MLflow experiments', gloss: 'the run tracking UI' },
      { name: 'Evidently drift report', gloss: 'the weekly distribution shift page' },
    ],
    tickets: [
      { name: 'ML-77', gloss: 'the leakage found in the validation split' },
      { name: 'ML-102', gloss: 'the request for multilingual support' },
      { name: 'ML-131', gloss: 'the GPU budget overrun' },
    ],
    facts: [
      { type: 'project', name: 'Validation split is by user, not by row', description: 'split train and validation by user id to avoid leakage', body: 'Row-level splits leaked users across sets and inflated AUC by 6 points (ML-77).\n', ask: 'validation split by user', gloss: 'how do we partition held-out examples so nobody appears on both sides', entities: [['ML-77', 'ticket']] },
      { type: 'feedback', name: 'Type hints everywhere in pipeline code', description: 'the user wants full type hints and mypy strict in pipeline/', body: 'Run mypy --strict before committing; no Any in public functions.\n', ask: 'mypy strict type hints', gloss: 'how strict should annotations be in the data code' },
      { type: 'project', name: 'GPU jobs run on spot instances', description: 'training uses spot g5 instances with checkpointing every 500 steps', body: 'Spot interruptions are normal; the DAG resumes from the last checkpoint in S3.\n', ask: 'spot instances gpu training checkpoint', gloss: 'what happens when the cheap preemptible machines vanish mid-run', entities: [['train_dag', 'service']] },
      { type: 'reference', name: 'Feature definitions catalogue', description: 'every feature is documented in docs/features.md with its owner', body: 'Add a row when you add a feature; Oskar reviews ingestion-side ones.\n', ask: 'feature definitions documentation', gloss: 'where is the list describing each model input column', entities: [['Oskar', 'person'], ['feature-store', 'service']] },
      { type: 'insight', name: 'Label noise caps accuracy', description: 'about 8 % of labels disagree between annotators', body: 'Beyond 0.91 AUC improvements are mostly noise; double-annotate hard examples instead.\n', ask: 'label noise annotators disagree', gloss: 'why the scores plateau no matter what we tune' },
      { type: 'value', name: 'Reproducible runs over speed', description: 'seeds, pinned data snapshots and deterministic ops even when slower', body: 'A result we cannot reproduce is not a result.\n', ask: 'reproducible runs seeds', gloss: 'do we trade determinism for faster experiments' },
    ],
    unanswerable: [
      'how do we rotate the Stripe webhook signing secret',
      'what is the Storybook port for local development',
      'how do we publish the Rust crate to crates.io',
      'which Helm chart deploys the ingress controller',
      'how do we handle App Store review rejections',
    ],
  },
  {
    cwd: '/home/dev/src/infra',
    components: [
      { name: 'prod-eks', alias: 'the production cluster', gloss: 'where live workloads run on Amazon' },
      { name: 'argocd', alias: 'the GitOps controller', gloss: 'what syncs manifests from the repository to clusters' },
      { name: 'vault', alias: 'the secrets store', gloss: 'where credentials are kept and leased' },
      { name: 'ingress-nginx', alias: 'the ingress', gloss: 'the front door routing HTTP traffic in' },
      { name: 'terraform-state', alias: 'the state bucket', gloss: 'the record of what cloud resources exist' },
      { name: 'prometheus', alias: 'metrics', gloss: 'time series scraping and alert rules' },
    ],
    people: [
      { name: 'Hana', gloss: 'the platform team lead' },
      { name: 'Igor', gloss: 'the networking specialist' },
      { name: 'Jules', gloss: 'the security engineer' },
      { name: 'Kwame', gloss: 'the SRE who runs incident reviews' },
    ],
    files: [
      { name: 'terraform/envs/prod/main.tf', gloss: 'the live environment definition' },
      { name: 'charts/platform/values.yaml', gloss: 'default settings for the shared deployment package' },
      { name: 'argocd/apps/root.yaml', gloss: 'the app-of-apps entry' },
      { name: 'terraform/modules/vpc/outputs.tf', gloss: 'what the network module exposes' },
      { name: '.github/workflows/plan.yml', gloss: 'the CI job previewing cloud changes' },
    ],
    tests: [
      { name: 'terraform validate', cmd: 'make tf-validate', needs: 'tflint and the aws provider cache', gloss: 'static checks of cloud definitions' },
      { name: 'policy tests', cmd: 'conftest test charts/', needs: 'the OPA policies in policy/', gloss: 'rules every manifest must obey' },
      { name: 'chart tests', cmd: 'helm unittest charts/platform', needs: 'the helm-unittest plugin', gloss: 'checks of rendered templates' },
    ],
    envVars: [
      { name: 'TF_VAR_environment', gloss: 'which stage a cloud plan targets' },
      { name: 'VAULT_ADDR', gloss: 'the credential server address' },
      { name: 'KUBECONFIG', gloss: 'which cluster kubectl talks to' },
    ],
    decisions: [
      { chose: 'ArgoCD', over: 'Flux', purpose: 'GitOps', why: 'the UI helps app teams debug syncs themselves', gloss: 'which continuous delivery controller and why' },
      { chose: 'Karpenter', over: 'cluster-autoscaler', purpose: 'node scaling', why: 'faster scale-up and mixed instance types', gloss: 'what adds machines when pods are pending' },
      { chose: 'external-secrets', over: 'sealed-secrets', purpose: 'secrets in Kubernetes', why: 'secrets stay in Vault, never in git', gloss: 'how credentials reach pods' },
    ],
    gotchas: [
      { tool: 'terraform aws provider', bad: '5.31', good: '5.30', breaks: 'the EKS access entries diff', gloss: 'the cloud plugin release that wanted to recreate cluster permissions' },
      { tool: 'helm', bad: '3.14.0', good: '3.13.3', breaks: 'OCI chart pulls behind the proxy', gloss: 'why chart downloads from the registry failed' },
      { tool: 'kubectl', bad: '1.30', good: '1.29', breaks: 'exec auth against the old API server', gloss: 'the command-line client version skew problem' },
    ],
    dashboards: [
      { name: 'Grafana cluster overview', gloss: 'the node and pod health graphs' },
      { name: 'PagerDuty platform schedule', gloss: 'who is on call this week' },
    ],
    tickets: [
      { name: 'OPS-55', gloss: 'the expired TLS certificate outage' },
      { name: 'OPS-81', gloss: 'the cost spike from idle load balancers' },
      { name: 'OPS-97', gloss: 'the move to a new AWS region' },
    ],
    facts: [
      { type: 'feedback', name: 'Never apply Terraform from a laptop', description: 'all applies go through the CI pipeline after review', body: 'Local applies drifted state twice; the user said CI only, no exceptions.\n', ask: 'terraform apply from laptop', gloss: 'can I push cloud changes from my own machine' },
      { type: 'project', name: 'Certificates come from cert-manager', description: 'TLS certificates are issued by cert-manager with Let\'s Encrypt DNS01', body: 'Renewals are automatic; OPS-55 happened when the DNS token expired.\n', ask: 'tls certificates cert-manager renewal', gloss: 'how do HTTPS credentials get refreshed', entities: [['OPS-55', 'ticket']] },
      { type: 'project', name: 'Namespaces per team', description: 'each team gets one namespace with quotas and a NetworkPolicy default deny', body: 'Request new namespaces through a PR to argocd/apps.\n', ask: 'team namespaces quotas', gloss: 'how are workloads of different groups isolated in the cluster', entities: [['argocd', 'tool']] },
      { type: 'reference', name: 'Runbook location', description: 'runbooks live in the platform wiki under Incidents', body: 'Kwame keeps them current after each incident review.\n', ask: 'where are the runbooks', gloss: 'where do I find step-by-step guides for outages', entities: [['Kwame', 'person']] },
      { type: 'value', name: 'Boring infrastructure', description: 'prefer managed services and well-known tools over clever ones', body: 'Every custom controller is a pager we carry.\n', ask: 'managed services boring infrastructure', gloss: 'what is our attitude to building bespoke platform pieces' },
      { type: 'insight', name: 'Most pages are disk pressure', description: 'half of last quarter\'s pages were nodes running out of ephemeral storage', body: 'Image garbage collection thresholds were too lax; lowered to 70 %.\n', ask: 'pages disk pressure nodes', gloss: 'what woke the on-call person up most often' },
    ],
    unanswerable: [
      'how do we format currency amounts in invoices',
      'what is the React version of the dashboard',
      'how do we tokenize Japanese text for the model',
      'which Kotlin coroutine dispatcher does the app use',
      'how do we debounce the search input',
    ],
  },
  {
    cwd: '/home/dev/src/mobile-app',
    components: [
      { name: 'SyncEngine', alias: 'offline sync', gloss: 'reconciling what changed on the phone while it had no signal' },
      { name: 'PushRelay', alias: 'the push service', gloss: 'notifications delivered to handsets' },
      { name: 'OnboardingFlow', alias: 'onboarding', gloss: 'the first screens a new person sees' },
      { name: 'CameraModule', alias: 'the scanner', gloss: 'reading receipts with the lens' },
      { name: 'BillingSDK', alias: 'in-app purchases', gloss: 'subscriptions bought through the stores' },
    ],
    people: [
      { name: 'Yusuf', gloss: 'the Android lead' },
      { name: 'Zoe', gloss: 'the iOS lead' },
      { name: 'Elif', gloss: 'the product manager for growth' },
    ],
    files: [
      { name: 'android/app/build.gradle.kts', gloss: 'the Android build script' },
      { name: 'ios/Podfile', gloss: 'the CocoaPods dependency list' },
      { name: 'fastlane/Fastfile', gloss: 'release automation lanes' },
      { name: 'shared/src/commonMain/kotlin/SyncEngine.kt', gloss: 'the multiplatform reconciliation code' },
    ],
    tests: [
      { name: 'Android instrumented tests', cmd: './gradlew connectedDebugAndroidTest', needs: 'a running emulator with API 34', gloss: 'checks that run on a virtual handset' },
      { name: 'iOS snapshot tests', cmd: 'bundle exec fastlane ios snapshots', needs: 'Xcode 15.2 simulators', gloss: 'pixel comparisons of Apple screens' },
      { name: 'shared module tests', cmd: './gradlew :shared:allTests', needs: 'nothing', gloss: 'checks of the cross-platform core' },
    ],
    envVars: [
      { name: 'MATCH_PASSWORD', gloss: 'the passphrase for the signing certificates repository' },
      { name: 'FIREBASE_APP_ID', gloss: 'the analytics project identifier' },
    ],
    decisions: [
      { chose: 'Kotlin Multiplatform', over: 'React Native', purpose: 'shared business logic', why: 'native UI stays native and the core is shared', gloss: 'why is the cross-platform layer not JavaScript' },
      { chose: 'SQLDelight', over: 'Room', purpose: 'local storage', why: 'it works on both iOS and Android', gloss: 'which on-device database library and why' },
    ],
    gotchas: [
      { tool: 'Xcode', bad: '15.3', good: '15.2', breaks: 'the Kotlin framework linking step', gloss: 'the Apple IDE update that broke builds' },
      { tool: 'Android Gradle Plugin', bad: '8.3', good: '8.2.2', breaks: 'R8 keeping our serializers', gloss: 'the shrinker stripping classes after a plugin update' },
    ],
    dashboards: [
      { name: 'Firebase Crashlytics', gloss: 'where handset crashes are reported' },
      { name: 'App Store Connect analytics', gloss: 'installs and retention numbers from Apple' },
    ],
    tickets: [
      { name: 'MOB-208', gloss: 'the battery drain complaint' },
      { name: 'MOB-233', gloss: 'the lost edits after reconnecting' },
    ],
    facts: [
      { type: 'project', name: 'Release trains every two weeks', description: 'mobile releases ship on alternate Thursdays via fastlane', body: 'Code freeze Tuesday noon; hotfixes need Elif\'s approval.\n', ask: 'release train schedule', gloss: 'how often do new builds go out to the stores', entities: [['Elif', 'person']] },
      { type: 'feedback', name: 'Compose previews for every screen', description: 'each Jetpack Compose screen gets a @Preview with light and dark themes', body: 'The user asked for previews so reviews do not need a device.\n', ask: 'compose preview screens', gloss: 'how should new Android views be made reviewable without a phone' },
      { type: 'project', name: 'Conflict resolution is last-writer-wins per field', description: 'SyncEngine merges edits field by field, newest timestamp wins', body: 'MOB-233 came from whole-record overwrite; field-level merge fixed it.\n', ask: 'sync conflict resolution', gloss: 'what happens when two devices edit the same thing offline', entities: [['SyncEngine', 'library'], ['MOB-233', 'ticket']] },
      { type: 'reference', name: 'Signing certificates via match', description: 'iOS certificates are managed by fastlane match in a private repo', body: 'Never create certificates by hand in the Apple portal.\n', ask: 'ios signing certificates match', gloss: 'how do we handle the Apple code signing identities' },
    ],
    unanswerable: [
      'how do we vacuum the ledger Postgres tables',
      'what is the Airflow schedule for the training DAG',
      'which Vite plugin handles SVG imports',
      'how do we add a clap subcommand',
      'what is the Karpenter provisioner for GPU nodes',
    ],
  },
  {
    cwd: '/home/dev/src/rust-cli',
    components: [
      { name: 'config-loader', alias: 'config parsing', gloss: 'reading settings from TOML and the environment' },
      { name: 'sync-engine', alias: 'the syncer', gloss: 'copying files between local disk and remote storage' },
      { name: 'progress-ui', alias: 'the progress bars', gloss: 'terminal feedback while long operations run' },
      { name: 'plugin-host', alias: 'plugins', gloss: 'loading third-party extensions at runtime' },
    ],
    people: [
      { name: 'Felix', gloss: 'the maintainer who reviews every PR' },
      { name: 'Gwen', gloss: 'the contributor working on Windows support' },
    ],
    files: [
      { name: 'src/main.rs', gloss: 'the binary entry point' },
      { name: 'src/config.rs', gloss: 'settings deserialization' },
      { name: 'Cargo.toml', gloss: 'the crate manifest' },
      { name: 'src/sync/walker.rs', gloss: 'directory traversal code' },
    ],
    tests: [
      { name: 'snapshot tests', cmd: 'cargo insta test --review', needs: 'cargo-insta installed', gloss: 'golden output comparisons' },
      { name: 'integration tests', cmd: 'cargo nextest run --features e2e', needs: 'a local MinIO on 9000', gloss: 'end-to-end runs against fake object storage' },
      { name: 'fuzz targets', cmd: 'cargo +nightly fuzz run parse_config', needs: 'the nightly toolchain', gloss: 'random inputs thrown at the settings reader' },
    ],
    envVars: [
      { name: 'RUST_LOG', gloss: 'how verbose tracing output is' },
      { name: 'SYNCTOOL_CONFIG', gloss: 'an override path for the settings file' },
    ],
    decisions: [
      { chose: 'clap derive', over: 'argh', purpose: 'argument parsing', why: 'shell completions and rich help for free', gloss: 'which command-line flags library and why' },
      { chose: 'tokio', over: 'async-std', purpose: 'the async runtime', why: 'the object storage SDK requires it', gloss: 'which executor runs our futures' },
      { chose: 'anyhow in the binary, thiserror in the library', over: 'one error type everywhere', purpose: 'error handling', why: 'library callers need matchable errors', gloss: 'how are failures modelled across crates' },
    ],
    gotchas: [
      { tool: 'rustc', bad: '1.77', good: '1.76', breaks: 'a lifetime inference in walker.rs', gloss: 'the compiler update that rejected our directory traversal code' },
      { tool: 'indicatif', bad: '0.17.8', good: '0.17.7', breaks: 'redraws on Windows terminals', gloss: 'flickering bars in the Microsoft console' },
    ],
    dashboards: [
      { name: 'crates.io download stats', gloss: 'how many people fetch our package' },
      { name: 'GitHub Actions matrix', gloss: 'CI across Linux, macOS and Windows' },
    ],
    tickets: [
      { name: '#412', gloss: 'the symlink loop hang' },
      { name: '#455', gloss: 'the request for a dry-run flag' },
    ],
    facts: [
      { type: 'feedback', name: 'Clippy pedantic must pass', description: 'cargo clippy with -D warnings and pedantic lints in CI', body: 'The user wants clippy clean before any PR; allow attributes need a comment.\n', ask: 'clippy pedantic warnings', gloss: 'how strict is the Rust lint gate' },
      { type: 'project', name: 'MSRV is 1.74', description: 'the minimum supported Rust version is 1.74, tested in CI', body: 'Bumping it is a minor release and needs Felix\'s sign-off.\n', ask: 'minimum supported rust version msrv', gloss: 'what is the oldest compiler we promise to build with', entities: [['Felix', 'person']] },
      { type: 'project', name: 'Symlinks are not followed by default', description: 'the walker skips symlinks unless --follow-links is given', body: 'Following them by default caused the #412 hang on loops.\n', ask: 'symlinks followed walker', gloss: 'do we traverse shortcuts to other directories', entities: [['#412', 'ticket'], ['sync-engine', 'library']] },
      { type: 'insight', name: 'Startup time is dominated by config parsing', description: 'most of the 40 ms startup is TOML parsing and env expansion', body: 'Lazy plugin discovery saved another 10 ms.\n', ask: 'startup time config parsing', gloss: 'what makes the binary slow to begin' },
    ],
    unanswerable: [
      'how do we roll back an ArgoCD sync',
      'which Stripe events does the webhook gateway handle',
      'what is the learning rate schedule for the ranking model',
      'how are Android push notifications batched',
      'what does the dashboard show for empty states',
    ],
  },
];

/** The user's own memories, for every project: how they like to work. */
export const GLOBAL_FACTS: readonly Fact[] = [
  { type: 'user', name: 'Senior backend engineer', description: 'the user is a senior backend engineer, newer to frontend work', body: 'Explain React and CSS details more than Go or SQL ones.\n', ask: 'user experience backend frontend', gloss: 'how much should I explain browser UI code to this person' },
  { type: 'feedback', name: 'Terse answers', description: 'the user wants short answers without summaries at the end', body: 'No recap paragraphs; lead with the change or the answer.\n', ask: 'short terse answers', gloss: 'how long should replies be' },
  { type: 'feedback', name: 'Conventional commits', description: 'commit messages follow Conventional Commits with a scope', body: 'feat(ledger): …, fix(ui): …; the body explains why.\n', ask: 'commit message format', gloss: 'how should I word the history entries when saving work to git' },
  { type: 'feedback', name: 'Never force-push shared branches', description: 'force-push only to personal branches, never to main or release branches', body: 'Use --force-with-lease even on personal branches.\n', ask: 'force push branches', gloss: 'may I rewrite history that others pulled' },
  { type: 'feedback', name: 'Ask before adding dependencies', description: 'propose a new dependency and wait for approval before installing it', body: 'The user reviews licenses and maintenance status first.\n', ask: 'adding new dependencies approval', gloss: 'can I pull in a third-party package on my own' },
  { type: 'user', name: 'Works in Europe/Berlin time', description: 'the user is in the Europe/Berlin timezone', body: 'Schedule-related answers should use CET/CEST.\n', ask: 'user timezone berlin', gloss: 'which clock does this person live by' },
  { type: 'feedback', name: 'Run tests before saying done', description: 'always run the relevant tests before reporting a task complete', body: 'The user was burned by "done" that did not compile.\n', ask: 'run tests before done', gloss: 'what must I verify prior to declaring a task finished' },
  { type: 'feedback', name: 'Prefer editing over rewriting files', description: 'make minimal diffs; do not rewrite whole files', body: 'Large rewrites hide the real change in review.\n', ask: 'minimal diffs rewriting files', gloss: 'how big should my code changes be' },
  { type: 'user', name: 'Uses Neovim and tmux', description: 'the user edits in Neovim inside tmux', body: 'Suggest terminal workflows, not VS Code features.\n', ask: 'editor neovim tmux', gloss: 'which text editing setup does this person have' },
  { type: 'feedback', name: 'British spelling in docs', description: 'documentation uses British spelling (colour, behaviour)', body: 'Code identifiers stay American (color) to match libraries.\n', ask: 'british spelling documentation', gloss: 'which variant of English for prose' },
  { type: 'value', name: 'Correctness before cleverness', description: 'prefer obvious code that is clearly right over clever code', body: 'A reviewer should see why it works without a whiteboard.\n', ask: 'correctness clever code', gloss: 'what does this person value when judging an implementation' },
  { type: 'feedback', name: 'No emojis in code or commits', description: 'never put emojis in code, comments or commit messages', body: 'They break some terminals and look unprofessional to the user.\n', ask: 'emojis in commits', gloss: 'may I decorate messages with pictograms' },
  { type: 'feedback', name: 'Explain shell commands before running destructive ones', description: 'say what rm, reset --hard or DROP will do before running it', body: 'And prefer a dry run first.\n', ask: 'destructive shell commands explain', gloss: 'what should I do prior to anything that deletes data' },
  { type: 'user', name: 'Reads diffs, not prose', description: 'the user prefers to see a diff rather than a description of a change', body: 'Show the patch; skip narrating it.\n', ask: 'show diffs not prose', gloss: 'how does this person like code changes presented' },
];

/** Questions about the user's ways that no memory answers. */
export const GLOBAL_UNANSWERABLE: readonly string[] = [
  'what is the user\'s favourite keyboard layout',
  'does the user want weekly status reports by email',
  'which podcast did the user recommend',
  'what was decided about the office move',
  'how does the user feel about pair programming on Fridays',
];
