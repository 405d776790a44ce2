import { renderMemoryFile } from '../memories/memory-file.js';
import type { ProjectActivity, ToolCount } from './project-stats.js';

/**
 * The three stats memory files, in Claude Code's memory format. Everything here is a function
 * of one project's stats: no clock, no locale, so a rebuild writes the same bytes.
 */

export const statsFiles = {
  stats: {
    file: 'auto-stats.md',
    description: 'engram: sessions, prompts, tool calls and the error rate in this project',
  },
  toolUsage: {
    file: 'auto-tool-usage.md',
    description: 'engram: the tools, commands and skills used most here, and skills never used',
  },
  errors: {
    file: 'auto-errors.md',
    description: 'engram: which tools fail here, how often, and the latest failures',
  },
} as const;

/**
 * `metadata.origin` of a stats file: says which projection's file it is (the reconciler and import
 * leave those to the stats projection). Whose its bytes are, src/ownership alone decides.
 */
export const STATS_ORIGIN_VALUE = 'engram-stats';

export function renderStats(s: ProjectActivity): string {
  const rows: Array<[string, string]> = [
    ['sessions', count(s.sessions)],
    ['prompts', count(s.prompts)],
    ['tool calls', count(s.toolCalls)],
    ['tool errors', `${count(s.toolErrors)} (${percent(s.toolErrors, s.toolCalls)})`],
    ['compactions', count(s.compactions)],
    ['prompts per session', s.sessions === 0 ? '–' : (s.prompts / s.sessions).toFixed(1)],
    ['tool calls per session', s.sessions === 0 ? '–' : (s.toolCalls / s.sessions).toFixed(1)],
    ['first seen', s.firstAt.slice(0, 10)],
    ['last seen', s.lastAt.slice(0, 10)],
  ];
  return memoryFile(s, 'engram activity stats', statsFiles.stats.description, [
    `# Activity in ${code(s.project)}`,
    '',
    table(['', ''], rows),
  ]);
}

export function renderToolUsage(s: ProjectActivity): string {
  const tools = entries(s.tools).sort(byCallsThenName).slice(0, 15);
  const commands = [...s.commands].sort(byCountThenName).slice(0, 10);
  const used = [...s.skillsUsed].sort(byCountThenName);
  const installed = [...s.skillsInstalled].sort((a, b) => compare(a.name, b.name));
  const neverUsed = installed.filter((skill) => !s.skillsUsed.has(skill.name));
  const failing = entries(s.tools)
    .filter(([, c]) => c.errors > 0)
    .sort((a, b) => b[1].errors / b[1].calls - a[1].errors / a[1].calls || b[1].errors - a[1].errors || compare(a[0], b[0]))
    .slice(0, 5);
  const body = [
    '# Tool usage',
    '',
    '## Most used tools',
    '',
    tools.length === 0 ? 'No tool calls yet.' : table(['tool', 'calls', 'share'], tools.map(([t, c]) => [code(t), count(c.calls), percent(c.calls, s.toolCalls)])),
    '',
    '## Tools that fail most',
    '',
    failing.length === 0 ? 'No tool has failed.' : table(['tool', 'errors', 'of calls'], failing.map(([t, c]) => [code(t), count(c.errors), percent(c.errors, c.calls)])),
    '',
    '## Most used commands',
    '',
    commands.length === 0 ? 'No shell commands yet.' : table(['program', 'runs'], commands.map(([p, n]) => [code(p), count(n)])),
    '',
    '## Skills',
    '',
    used.length === 0 ? 'No skill used yet.' : `Used: ${used.map(([name, n]) => `${code(name)} (${n})`).join(', ')}.`,
    '',
    installed.length === 0
      ? 'No installed skills seen.'
      : neverUsed.length === 0
        ? 'Every installed skill has been used.'
        : `Installed, never used here: ${neverUsed.map((skill) => `${code(skill.name)} (${skill.scope})`).join(', ')}.`,
  ];
  return memoryFile(s, 'engram tool usage', statsFiles.toolUsage.description, body);
}

export function renderErrors(s: ProjectActivity): string {
  const byTool = entries(s.tools)
    .filter(([, c]) => c.errors > 0)
    .sort((a, b) => b[1].errors - a[1].errors || compare(a[0], b[0]));
  const body = [
    '# Tool errors',
    '',
    `Error rate: ${percent(s.toolErrors, s.toolCalls)} (${count(s.toolErrors)} of ${count(s.toolCalls)} tool calls).`,
    '',
    '## By tool',
    '',
    byTool.length === 0 ? 'No tool has failed.' : table(['tool', 'errors', 'calls', 'rate'], byTool.map(([t, c]) => [code(t), count(c.errors), count(c.calls), percent(c.errors, c.calls)])),
    '',
    '## Latest failures',
    '',
    s.recentFailures.length === 0
      ? 'None.'
      : s.recentFailures.map((f) => `- ${f.at.slice(0, 10)} ${code(f.tool)} ${code(f.input || '(no input)')}: ${code(firstLine(f.error) || '(no message)')}`).join('\n'),
  ];
  return memoryFile(s, 'engram tool errors', statsFiles.errors.description, body);
}

// Through the one memory-file writer: a description such as `engram: sessions, …` must be quoted
// to be YAML, and Claude Code reads this frontmatter with a YAML parser.
function memoryFile(s: ProjectActivity, name: string, description: string, body: string[]): string {
  return renderMemoryFile({
    name,
    description,
    type: 'reference',
    modified: s.lastAt,
    created: s.firstAt,
    tier: 'fact',
    confidence: 1,
    status: 'active',
    extra: { top: [], metadata: [{ key: 'origin', value: STATS_ORIGIN_VALUE }] },
    body: [...body, '', '_Derived from engram\'s event log; rewritten as activity is recorded._', ''].join('\n'),
  });
}

function entries(tools: ReadonlyMap<string, ToolCount>): Array<[string, ToolCount]> {
  return [...tools];
}

function byCallsThenName(a: [string, ToolCount], b: [string, ToolCount]): number {
  return b[1].calls - a[1].calls || compare(a[0], b[0]);
}

function byCountThenName(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || compare(a[0], b[0]);
}

// Code-unit order, not localeCompare: the output must not depend on the machine's locale.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function table(header: string[], rows: Array<string[]>): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0 %' : `${((100 * part) / whole).toFixed(1)} %`;
}

/**
 * Recorded text (commands, errors) is data, not instructions: shown as inline code, so neither
 * markdown nor a table cell boundary can be smuggled through it.
 */
function code(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|').slice(0, 160);
  const fence = flat.includes('`') ? '``' : '`';
  return `${fence}${flat.includes('`') ? ` ${flat} ` : flat}${fence}`;
}

// `Exit code 1` alone says little; the first line that names a failure says what failed.
const FAILURE_WORDS = /error|fail|denied|not found|cannot|unable|timed? ?out|refused|✗|×/i;

function firstLine(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  if (!/^Exit code \d+$/.test(first)) return first;
  const telling = lines.slice(1).find((line) => FAILURE_WORDS.test(line));
  return telling ? `${first}: ${telling}` : first;
}
