import { z } from 'zod';
import { EMBEDDER_CHOICES } from '../recall/embedders/embedder-choice.js';

/**
 * One setting: its key in `config.json`, the environment variable that overrides it, its
 * default (as the variable would spell it), what it means, and the shape a value in the file
 * must have. The environment is how every reader in engram takes it (the file's value is put
 * there when the variable is unset: see effective-settings.ts), so a value from the file is
 * spelled here as the variable would be.
 */
export interface SettingSpec {
  key: string;
  env: string;
  /** As the variable spells it; '' for "none". */
  default: string;
  /** What it means, for `engram config list` and docs/configuration.md. */
  doc: string;
  /** `hooks`: the hooks read it too (src/hooks/hook-config.ts, which must list it); else the CLI and the worker. */
  readBy: 'hooks' | 'worker';
  shape: z.ZodType<string | number | boolean>;
  /** The file's value as the environment variable spells it. */
  toEnv(value: string | number | boolean): string;
  /** A value typed on the command line (`engram config set KEY VALUE`) as the file keeps it. */
  fromText(text: string): string | number | boolean;
}

const asText = (value: string | number | boolean) => String(value);
const bool01 = (value: string | number | boolean) => (value === true ? '1' : '0');
const int = (min: number) => z.number().int().min(min);
const onOff = (text: string): boolean | string => {
  if (/^(true|on|yes|1)$/i.test(text)) return true;
  if (/^(false|off|no|0)$/i.test(text)) return false;
  return text;
};
const num = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

function setting(spec: Omit<SettingSpec, 'toEnv' | 'fromText' | 'readBy'> & Partial<Pick<SettingSpec, 'toEnv' | 'fromText' | 'readBy'>>): SettingSpec {
  return { toEnv: asText, fromText: (text) => text, readBy: 'worker', ...spec };
}

/**
 * Every setting a user may keep in `config.json`, in one table (docs/configuration.md is this
 * table, and a test holds them together). Variables that are not settings stay environment-only:
 * ENGRAM_HOME and CLAUDE_CONFIG_DIR (they say where the file is), ENGRAM_NOW (a test's clock),
 * ENGRAM_DISABLE, ENGRAM_HOOK_CODE_CACHE and ENGRAM_MCP_RUNTIME_WAIT_MS (read before anything
 * else loads), ENGRAM_DISTILLING (set by the distiller around its own LLM call).
 */
export const SETTINGS: readonly SettingSpec[] = [
  setting({
    key: 'distiller', env: 'ENGRAM_DISTILLER', default: 'on',
    doc: '`off`: no session is distilled into memories',
    shape: z.enum(['on', 'off']),
  }),
  setting({
    key: 'llmCommand', env: 'ENGRAM_LLM_CMD', default: '',
    doc: 'the LLM of the distiller and the audit: a shell command that reads the prompt on stdin and prints what `claude -p --output-format json` prints; none: `claude -p --model haiku` when `claude` is on PATH, else episodes come from the trace alone',
    shape: z.string(),
  }),
  setting({
    key: 'llmTimeoutMs', env: 'ENGRAM_LLM_TIMEOUT_MS', default: '120000',
    doc: 'one LLM call is killed after this many ms',
    shape: int(1), fromText: num,
  }),
  setting({
    key: 'distillPauseMs', env: 'ENGRAM_DISTILL_PAUSE_MS', default: '10000',
    doc: 'the distiller waits this many ms after an LLM call before the next (spreads out a backlog); 0: back to back',
    shape: int(0), fromText: num,
  }),
  setting({
    key: 'embedder', env: 'ENGRAM_EMBEDDER', default: 'use-lite',
    doc: `the vectors' model: ${EMBEDDER_CHOICES.map((c) => `\`${c}\``).join(', ')} (\`use-lite\` is in the package, \`bge-small\` needs the optional fastembed)`,
    shape: z.enum(EMBEDDER_CHOICES),
  }),
  setting({
    key: 'recallWaitMs', env: 'ENGRAM_RECALL_WAIT_MS', default: '150', readBy: 'hooks',
    doc: "how many ms the prompt hook waits for the worker's recall before ranking from the index files itself; 0: never ask",
    shape: int(0), fromText: num,
  }),
  setting({
    key: 'workerAutostart', env: 'ENGRAM_WORKER_AUTOSTART', default: '1', readBy: 'hooks',
    doc: 'false (`0`): hooks and the MCP server never start a worker',
    shape: z.boolean(), toEnv: bool01, fromText: onOff,
  }),
  setting({
    key: 'workerIdleMs', env: 'ENGRAM_WORKER_IDLE_MS', default: '600000',
    doc: 'the worker exits after this many ms with nothing to do',
    shape: int(1), fromText: num,
  }),
  setting({
    key: 'spoolStaleMs', env: 'ENGRAM_SPOOL_STALE_MS', default: '10000',
    doc: "a hook's file still being written in `spool/tmp` holds newer files back (exact spool order) for at most this many ms; a live hook's file is never taken, but one whose writer cannot be asked (no /proc) is taken as a dead hook's once this old",
    shape: int(1), fromText: num,
  }),
  setting({
    key: 'spoolFutureWaitMs', env: 'ENGRAM_SPOOL_FUTURE_WAIT_MS', default: '2000',
    doc: "a spool file named ahead of this machine's clock (another clock's name) waits this many ms, for order with a clock off by a second or two, then is taken anyway",
    shape: int(0), fromText: num,
  }),
  setting({
    key: 'modelIdleMs', env: 'ENGRAM_MODEL_IDLE_MS', default: '600000',
    doc: "the worker lets go of the vectors' model after this many ms unused (about 130 MB) and loads it again on the next recall, answering without vectors while it loads",
    shape: int(1), fromText: num,
  }),
  setting({
    key: 'skillCapture', env: 'ENGRAM_SKILL_CAPTURE', default: '1', readBy: 'hooks',
    doc: 'false (`0`): the SessionStart block leaves out the skill-capture policy line',
    shape: z.boolean(), toEnv: bool01, fromText: onOff,
  }),
  setting({
    key: 'skillMatchThreshold', env: 'ENGRAM_SKILL_MATCH_THRESHOLD', default: '0.55',
    doc: 'cosine at or above which a memory is suggested as an update of an own skill, else as a new skill',
    shape: z.number().min(-1).max(1), fromText: num,
  }),
  setting({
    key: 'curatorEveryDays', env: 'ENGRAM_CURATOR_EVERY_DAYS', default: '7',
    doc: 'the skills curator runs at most this often, in days',
    shape: z.number().positive(), fromText: num,
  }),
  setting({
    key: 'curatorStaleDays', env: 'ENGRAM_CURATOR_STALE_DAYS', default: '30',
    doc: 'a captured skill unused this many days is reported stale',
    shape: z.number().positive(), fromText: num,
  }),
  setting({
    key: 'curatorArchiveDays', env: 'ENGRAM_CURATOR_ARCHIVE_DAYS', default: '90',
    doc: 'a captured skill unused this many days is archivable',
    shape: z.number().positive(), fromText: num,
  }),
  setting({
    key: 'curatorArchive', env: 'ENGRAM_CURATOR_ARCHIVE', default: '0',
    doc: 'true (`1`): the curator archives archivable skills instead of only reporting them',
    shape: z.boolean(), toEnv: bool01, fromText: onOff,
  }),
  setting({
    key: 'audit', env: 'ENGRAM_AUDIT', default: '0',
    doc: "true (`1`): after each turn the LLM audits it for skills worth capturing (uses the distiller's LLM)",
    shape: z.boolean(), toEnv: bool01, fromText: onOff,
  }),
  setting({
    key: 'syncScope', env: 'ENGRAM_SYNC_SCOPE', default: 'off',
    doc: '`personal`: this machine shares its events (already redacted) with your other machines through `syncUrl` and imports theirs; `team`: only the memories of the projects in `syncTeamProjects` are shared, with your team (docs/team-sync.md); `off`: nothing leaves the machine',
    shape: z.enum(['off', 'personal', 'team']),
  }),
  setting({
    key: 'syncTeamProjects', env: 'ENGRAM_SYNC_TEAM_PROJECTS', default: '',
    doc: 'the project directories whose memories the `team` scope shares, separated by `:` (`engram team join URL` in a project adds it); each is named by its git remote `origin` or its `.engram-project` file, never its path',
    shape: z.string(),
  }),
  setting({
    key: 'syncUrl', env: 'ENGRAM_SYNC_URL', default: '',
    doc: 'the NATS JetStream server(s) to sync through, comma-separated (`nats://host:4222`, `tls://host:4222`); never with a user or password in it: those go in `syncCredentials`',
    shape: z.string().refine((url) => !/\/\/[^/@]*@/.test(url), 'put credentials in the file `syncCredentials` names, not in the URL'),
  }),
  setting({
    key: 'syncCredentials', env: 'ENGRAM_SYNC_CREDENTIALS', default: '',
    doc: 'a file holding the sync credentials: a NATS `.creds` file, an nkey seed, or JSON `{"user","password"}` or `{"token"}`; read by the worker only, never printed or logged',
    shape: z.string(),
  }),
  setting({
    key: 'syncTlsCa', env: 'ENGRAM_SYNC_TLS_CA', default: '',
    doc: "a PEM file of the CA that signed the sync server's certificate (implies TLS); none: the system's CAs when the URL says `tls://`",
    shape: z.string(),
  }),
  setting({
    key: 'syncUser', env: 'ENGRAM_SYNC_USER', default: '',
    doc: "the name your machines share the personal stream under (subject `engram.personal.<syncUser>`; letters, digits, `-`, `_`); none: this machine's login name",
    shape: z.string().regex(/^[A-Za-z0-9_-]{0,64}$/),
  }),
  setting({
    key: 'syncReplicas', env: 'ENGRAM_SYNC_REPLICAS', default: '1',
    doc: 'how many servers of a JetStream cluster keep each message of the stream, when engram is the one that makes it (1 to 5; 3 survives a server lost); a stream that exists is left as it is',
    shape: z.number().int().min(1).max(5), fromText: num,
  }),
  setting({
    key: 'syncTimeoutMs', env: 'ENGRAM_SYNC_TIMEOUT_MS', default: '5000',
    doc: 'how many ms the sync waits on a server gone silent: a publish for its ack, a ping for its answer (two unanswered: the connection is made again), and twice this past a fetch\'s expiry before its consumer is made again on a server that runs (at least 100)',
    shape: int(100), fromText: num,
  }),
];

/** The variables that are only ever read from the environment, with their meaning (docs/configuration.md). */
export const ENVIRONMENT_ONLY: ReadonlyArray<{ env: string; default: string; doc: string }> = [
  { env: 'ENGRAM_HOME', default: '~/.engram', doc: 'where engram keeps everything, config.json included' },
  { env: 'CLAUDE_CONFIG_DIR', default: '~/.claude', doc: "Claude Code's own; memory files go to `projects/<slug>/memory/`" },
  { env: 'ENGRAM_NOW', default: 'the system clock', doc: 'pins the clock (ISO time), for tests and replays' },
  { env: 'ENGRAM_DISABLE', default: '', doc: '`1`: hooks do nothing' },
  { env: 'ENGRAM_HOOK_CODE_CACHE', default: 'on', doc: "`off`: hooks compile their bundle every time instead of keeping V8's code cache" },
  { env: 'ENGRAM_MCP_RUNTIME_WAIT_MS', default: '300000', doc: "the plugin's MCP server, first started before engram's runtime is prepared, waits this long for it" },
  { env: 'ENGRAM_DISTILLING', default: '', doc: "set by the distiller around its own LLM call, so that call's hooks record nothing" },
];

export function settingByKey(key: string): SettingSpec | undefined {
  return SETTINGS.find((s) => s.key === key);
}
