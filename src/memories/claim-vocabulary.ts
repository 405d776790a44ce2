/** The words and patterns claim extraction recognises (see claims.ts for what is taken from where). */

export const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`\\]+/gi;
export const URL_WHOLE = /^https?:\/\/\S+$/i;
/** `[text](target "title")`, `![alt](target)` and `[1]: target` reference definitions. */
export const LINK_TARGET = /\]\(\s*<?([^\s<>()]+)>?(?:\s+"[^"]*")?\s*\)|^ {0,3}\[[^\]]+\]:\s*<?([^\s<>]+)>?/gm;
export const WINDOWS_PATH = /^[A-Za-z]:\\[^\s]*$/;
/** A path segment: names, placeholders and globs, Next.js `[slug]` and `(group)` directories. */
export const SEGMENT = /^[\w.@+~<>{}$*?[\]()-]+$/;
export const DOTFILE = /^\.(?:env(?:\.[\w-]+)?|gitignore|gitattributes|gitmodules|npmrc|nvmrc|yarnrc(?:\.yml)?|editorconfig|dockerignore|prettierrc(?:\.\w+)?|prettierignore|eslintrc(?:\.\w+)?|eslintignore|babelrc(?:\.\w+)?|stylelintrc(?:\.\w+)?|browserslistrc|tool-versions|python-version|node-version|ruby-version|terraform-version|pre-commit-config\.yaml|gitlab-ci\.yml|mailmap|venv|github|vscode|claude|husky|devcontainer|circleci|cargo|idea)$/;

export const CALL = /^(?:new\s+)?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*;?$/;
export const SYMBOL_CHAIN = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*$/;
/** Two or more capitals and a lower-case letter: `UserService`, `HTTPServer`; not `Bash`, `JSON`. */
export const PASCAL = /^(?=(?:[^A-Z]*[A-Z]){2})(?=.*[a-z])[A-Z][A-Za-z0-9]*$/;
export const PASCAL_START = /^[A-Z][a-z0-9]*[A-Z]?/;
export const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

export const BRANCH_BEFORE = /\bbranch(?:es)?\s+(?:(?:is|are)\s+)?(?:named\s+|called\s+)?$/i;
export const BRANCH_AFTER = /^\s+branch(?:es)?\b/i;
export const PACKAGE_AFTER = /^\s+(packages?|librar(?:y|ies)|crates?|gems?|dependenc(?:y|ies)|deps?)\b/i;
export const PACKAGE_BEFORE = /\b(package|crate|gem|dependency|library)\s+$/i;

export const NPM_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;
export const GO_MODULE = /^[a-z0-9.-]+\.[a-z]{2,}(?:\/[A-Za-z0-9._~-]+)+$/;
// A version stops at a comma: each further specifier is the group's, never the version's before it.
export const REQUIREMENT_PINNED = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:==|>=|<=|~=|!=|===)\s*\d[^\s;#,]*(?:\s*,\s*(?:==|>=|<=|~=|!=|<|>)\s*\d[^\s;#,]*)*(?:\s*;.*)?$/;
export const REQUIREMENT_LOOSE = /^([A-Za-z][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:(?:==|>=|<=|~=|!=|===|<|>)\s*\d[^\s;#,]*(?:\s*,\s*(?:==|>=|<=|~=|!=|<|>)\s*\d[^\s;#,]*)*)?(?:\s*;.*)?$/;
export const NPM_DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

export const LOCAL_HOST = /^(?:localhost|.*\.localhost|.*\.local|.*\.test|.*\.invalid|127(?:\.\d+){3}|0\.0\.0\.0|10(?:\.\d+){3}|192\.168(?:\.\d+){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d+){2}|\[::1?\]|\[f[cd][0-9a-f:]*\])$/;
export const EXAMPLE_HOST = /^(?:(?:.*\.)?example\.(?:com|org|net)|.*\.example)$/;
/** Top-level domains that are rarely a member's name (not info, app, dev, page: `logger.info` is code). */
export const TLDS: ReadonlySet<string> = new Set('com org net io co uk de fr jp cn ru edu gov us ca au nl eu ly gg xyz'.split(' '));

/** Extensions a file name may carry. Left out: log, map, env, io, m, r, v, d, fs, ex, ml, in (members and TLDs). */
export const EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx markdown txt rst adoc yaml yml toml ini cfg conf lock ' +
    'py pyi ipynb rb erb rake gemspec go mod sum rs java kt kts scala groovy gradle swift h hpp hh c cc cpp cxx cs vb ' +
    'php pl pm lua dart exs erl hrl clj cljs elm hs mli jl sh bash zsh fish ps1 bat cmd sql graphql gql proto prisma ' +
    'html htm css scss sass less styl vue svelte astro xml xsd svg png jpg jpeg gif webp ico pdf csv tsv parquet ' +
    'drawio tf tfvars hcl nix pem crt pfx p12 wasm zip tar gz tgz patch diff plist properties j2 jinja tmpl tpl hbs ' +
    'ejs pug liquid sol zig nim cmake mk bzl bazel prof dat db sqlite sqlite3 bin out'
  ).split(' '),
);
/** Extensions of web routes more than of files: `/api/orders.json` is an endpoint. */
export const WEB_EXTENSIONS: ReadonlySet<string> = new Set(['json', 'xml', 'html', 'htm', 'php']);
export const KNOWN_FILES: ReadonlySet<string> = new Set(
  'Makefile GNUmakefile Dockerfile Containerfile Jenkinsfile Procfile Gemfile Rakefile Vagrantfile Brewfile Justfile justfile Caddyfile Tiltfile Podfile Pipfile Guardfile Earthfile LICENSE CODEOWNERS NOTICE AUTHORS OWNERS'.split(' '),
);
/** Known file names that are also words, so only taken from inline code. */
export const WORDLIKE_FILES: ReadonlySet<string> = new Set(['LICENSE', 'NOTICE', 'AUTHORS', 'OWNERS']);
/** First directories that make `x/y` a path even without an extension. */
export const KNOWN_DIRS: ReadonlySet<string> = new Set(
  'src lib libs test tests spec specs docs doc scripts script packages apps app internal cmd pkg config configs bin public assets static e2e fixtures tools components migrations examples benches bench include crates modules services .github .vscode .claude .husky'.split(' '),
);
export const MIME_TOPS: ReadonlySet<string> = new Set(['application', 'text', 'image', 'audio', 'video', 'multipart', 'font', 'model', 'message']);
export const ABSOLUTE_ROOTS: ReadonlySet<string> = new Set(
  'etc usr var home Users opt tmp private Library System Applications bin sbin lib lib64 srv mnt media Volumes root proc dev sys run nix snap workspaces'.split(' '),
);
export const TEMP_ROOTS = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/tmp', '/dev/shm'];

export const KEYWORDS: ReadonlySet<string> = new Set('if for while switch catch function return typeof sizeof super import export await async yield new delete void def class fn func let const var else elif match loop'.split(' '));
/** Receivers whose members belong to a language's library or runtime, not to the project. */
export const PLATFORM_RECEIVERS: ReadonlySet<string> = new Set(
  (
    'JSON Math Object Array Promise Reflect Number String Symbol Date RegExp Intl Atomics BigInt Proxy Map Set WeakMap Error ' +
    'console process window document navigator globalThis Buffer fs path os util crypto http https url child_process stream ' +
    'events zlib assert sys re json math time datetime subprocess itertools functools collections typing pathlib logging ' +
    'asyncio shutil fmt strings strconv errors Vec Option Result Box HashMap'
  ).split(' '),
);
/** Globals of JavaScript, Python and Go a project calls but does not define. */
export const PLATFORM_GLOBALS: ReadonlySet<string> = new Set(
  (
    'fetch setTimeout setInterval clearTimeout clearInterval setImmediate structuredClone queueMicrotask requestAnimationFrame ' +
    'parseInt parseFloat isNaN encodeURIComponent decodeURIComponent encodeURI decodeURI atob btoa require eval alert ' +
    'print len range open isinstance issubclass enumerate zip sorted reversed map filter dict list set tuple int str float ' +
    'bool repr type id input sum min max abs any all iter next hasattr getattr setattr vars dir append make panic println ' +
    'WebSocket URLSearchParams AbortController AbortSignal TextEncoder TextDecoder ReadableStream WritableStream FormData ' +
    'XMLHttpRequest IntersectionObserver MutationObserver ResizeObserver HTMLElement SharedArrayBuffer ArrayBuffer ' +
    'Uint8Array DataView WeakRef FinalizationRegistry AggregateError TypeError RangeError SyntaxError ReferenceError ' +
    'DOMParser BroadcastChannel MessageChannel localStorage sessionStorage'
  ).split(' '),
);
/** Claude Code's own tools: memories name them often, and they are not the project's code. */
export const CLAUDE_CODE_TOOLS: ReadonlySet<string> = new Set(
  'Bash BashOutput KillShell KillBash Read Write Edit MultiEdit Glob Grep LS WebFetch WebSearch TodoWrite TodoRead Task NotebookEdit NotebookRead ExitPlanMode SlashCommand Skill AskUserQuestion'.split(' '),
);
/** Product names written like identifiers. */
export const PRODUCTS: ReadonlySet<string> = new Set(
  (
    'GitHub GitLab BitBucket PostgreSQL MySQL SQLite MongoDB DynamoDB CockroachDB LevelDB LanceDB RocksDB DuckDB ClickHouse ' +
    'InfluxDB CouchDB MariaDB TimescaleDB SurrealDB PlanetScale TypeScript JavaScript CoffeeScript PowerShell GraphQL NoSQL ' +
    'OpenAI ChatGPT OpenAPI FastAPI NestJS NextJS NodeJS VueJS ReactJS SvelteKit TailwindCSS WebStorm IntelliJ PyCharm ' +
    'GoLand RubyMine PhpStorm CLion DataGrip VSCode YouTube LinkedIn PayPal WordPress DigitalOcean CloudFront CloudWatch ' +
    'CloudFormation BigQuery BigTable EventBridge AppSync ElasticSearch OpenSearch LaunchDarkly PagerDuty DataDog NewRelic ' +
    'SendGrid MailChimp HubSpot SalesForce ServiceNow WhatsApp JetBrains HashiCorp CircleCI TravisCI MacBook OneDrive ' +
    'SharePoint DevOps DevTools WebAssembly WebGL WebGPU OAuth OpenID HuggingFace LangChain LlamaIndex OpenTelemetry ArgoCD ' +
    'RabbitMQ ActiveMQ ZeroMQ KeyDB MinIO PyPI PyTorch TensorFlow NumPy SciPy iOS macOS iPadOS watchOS tvOS visionOS ' +
    'iPhone iPad iCloud jQuery eBay pgAdmin phpMyAdmin gRPC tRPC npmJS GitOps FinOps MLOps LaTeX'
  ).split(' '),
);
