#!/usr/bin/env node
// Validates the recorded hook payload fixtures in fixtures/sessions/ (or the directory given as
// the first argument) and prints a summary. Plain Node, no dependencies. Exit 1 on any error.
//
// A fixture file is `NN-<project>-<topic>.jsonl`, one line per hook invocation, in firing order:
//   {"at": "<ISO UTC>", "hook": "<event>", "payload": { ...what Claude Code sends on stdin... }}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(process.argv[2] ?? join(root, 'fixtures', 'sessions'));

const HOOKS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'PreCompact', 'Stop', 'SubagentStop', 'SessionEnd'];
const START_SOURCES = ['startup', 'resume', 'clear', 'compact', 'fork'];
const END_REASONS = ['clear', 'resume', 'logout', 'prompt_input_exit', 'other', 'bypass_permissions_disabled'];
const COMMON = ['session_id', 'transcript_path', 'cwd', 'hook_event_name'];
// Fields each event is documented to carry; anything else is an "unknown" field engram must tolerate.
const KNOWN = {
  SessionStart: ['source', 'model'],
  UserPromptSubmit: ['prompt'],
  PostToolUse: ['tool_name', 'tool_input', 'tool_response', 'tool_use_id'],
  PostToolUseFailure: ['tool_name', 'tool_input', 'tool_use_id', 'error', 'is_interrupt'],
  PreCompact: ['trigger', 'custom_instructions'],
  Stop: ['stop_hook_active', 'last_assistant_message'],
  SubagentStop: ['stop_hook_active', 'agent_transcript_path', 'agent_type', 'last_assistant_message'],
  SessionEnd: ['reason'],
};
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TOOL_USE_ID = /^toolu_01[A-Za-z0-9]{22}$/;
const FILE_NAME = /^(\d\d)-([A-Za-z0-9._]+(?:-[A-Za-z0-9._]+)*)\.jsonl$/;

const errors = [];
const fail = (where, msg) => errors.push(`${where}: ${msg}`);
const slug = (cwd) => cwd.replace(/[^a-zA-Z0-9]/g, '-');
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v) => typeof v === 'string';
const nonEmpty = (v) => str(v) && v.length > 0;

if (!existsSync(dir)) {
  console.error(`no fixture directory: ${dir}`);
  process.exit(1);
}
const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
if (files.length === 0) fail(dir, 'no .jsonl fixtures');

const sessions = [];
const toolUseIds = new Map();
const seenSessionIds = new Map();
let prevNumber = 0;

for (const [index, file] of files.entries()) {
  const m = FILE_NAME.exec(file);
  if (!m) fail(file, 'name is not NN-<project>-<topic>.jsonl');
  else {
    const want = index === 0 ? 1 : prevNumber + 1;
    if (Number(m[1]) !== want) fail(file, `numbered ${m[1]}, expected ${String(want).padStart(2, '0')} (files are numbered 01..N without gaps or repeats)`);
    prevNumber = Number(m[1]);
  }

  const text = readFileSync(join(dir, file), 'utf8');
  if (!text.endsWith('\n')) fail(file, 'does not end with a newline');
  const rawLines = text.split('\n');
  if (rawLines.at(-1) === '') rawLines.pop();

  const s = { file, events: [], sessionId: undefined, cwd: undefined, firstAt: undefined, lastAt: undefined };
  let prevMs = -Infinity;
  for (const [i, raw] of rawLines.entries()) {
    const where = `${file}:${i + 1}`;
    let line;
    try {
      line = JSON.parse(raw);
    } catch (err) {
      fail(where, `not JSON (${err.message})`);
      continue;
    }
    if (!isObj(line)) { fail(where, 'line is not an object'); continue; }
    const extraTop = Object.keys(line).filter((k) => !['at', 'hook', 'payload'].includes(k));
    if (extraTop.length) fail(where, `unexpected top-level keys: ${extraTop.join(', ')}`);

    const { at, hook, payload: p } = line;
    const ms = str(at) ? Date.parse(at) : NaN;
    if (!str(at) || !ISO_UTC.test(at) || Number.isNaN(ms) || new Date(ms).toISOString() !== at) fail(where, `bad "at": ${JSON.stringify(at)} (want e.g. 2026-10-05T09:14:03.000Z)`);
    else {
      if (ms <= prevMs) fail(where, `"at" ${at} does not strictly increase`);
      prevMs = ms;
      s.firstAt ??= at;
      s.lastAt = at;
    }
    if (!HOOKS.includes(hook)) { fail(where, `unknown hook ${JSON.stringify(hook)}`); continue; }
    if (!isObj(p)) { fail(where, 'payload is not an object'); continue; }

    // Common fields.
    for (const k of COMMON) if (!nonEmpty(p[k])) fail(where, `payload.${k} missing or empty`);
    if (p.hook_event_name !== hook) fail(where, `hook_event_name ${JSON.stringify(p.hook_event_name)} != hook ${hook}`);
    if (str(p.session_id) && !UUID_V4.test(p.session_id)) fail(where, `session_id is not a UUID v4: ${p.session_id}`);
    if (str(p.cwd) && !p.cwd.startsWith('/')) fail(where, `cwd is not absolute: ${p.cwd}`);
    if (str(p.cwd) && str(p.session_id) && str(p.transcript_path)) {
      const want = `/.claude/projects/${slug(p.cwd)}/${p.session_id}.jsonl`;
      if (!p.transcript_path.endsWith(want)) fail(where, `transcript_path ${p.transcript_path} does not end with ${want}`);
    }
    s.sessionId ??= p.session_id;
    s.cwd ??= p.cwd;
    if (str(p.session_id) && p.session_id !== s.sessionId) fail(where, `session_id ${p.session_id} differs from the file's ${s.sessionId}`);
    if (str(p.cwd) && p.cwd !== s.cwd) fail(where, `cwd ${p.cwd} differs from the file's ${s.cwd}`);
    if ('permission_mode' in p && !['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'].includes(p.permission_mode)) fail(where, `odd permission_mode ${p.permission_mode}`);

    // Per-event fields.
    switch (hook) {
      case 'SessionStart':
        if (!START_SOURCES.includes(p.source)) fail(where, `SessionStart source ${JSON.stringify(p.source)}`);
        if ('model' in p && !nonEmpty(p.model)) fail(where, 'SessionStart model is not a non-empty string');
        break;
      case 'UserPromptSubmit':
        if (!nonEmpty(p.prompt)) fail(where, 'UserPromptSubmit without a prompt');
        break;
      case 'PostToolUse':
      case 'PostToolUseFailure': {
        if (!nonEmpty(p.tool_name)) fail(where, 'tool_name missing');
        if (!isObj(p.tool_input)) fail(where, 'tool_input is not an object');
        else checkToolInput(where, p.tool_name, p.tool_input);
        if (!str(p.tool_use_id) || !TOOL_USE_ID.test(p.tool_use_id)) fail(where, `bad tool_use_id ${JSON.stringify(p.tool_use_id)}`);
        else if (toolUseIds.has(p.tool_use_id)) fail(where, `tool_use_id ${p.tool_use_id} already used at ${toolUseIds.get(p.tool_use_id)}`);
        else toolUseIds.set(p.tool_use_id, where);
        if (hook === 'PostToolUse' && !('tool_response' in p)) fail(where, 'PostToolUse without tool_response');
        if (hook === 'PostToolUseFailure') {
          if (!nonEmpty(p.error)) fail(where, 'PostToolUseFailure without an error string');
          if ('is_interrupt' in p && typeof p.is_interrupt !== 'boolean') fail(where, 'is_interrupt is not a boolean');
          if ('tool_response' in p) fail(where, 'PostToolUseFailure carries a tool_response');
        }
        break;
      }
      case 'PreCompact':
        if (!['manual', 'auto'].includes(p.trigger)) fail(where, `PreCompact trigger ${JSON.stringify(p.trigger)}`);
        if (!str(p.custom_instructions)) fail(where, 'PreCompact custom_instructions is not a string');
        if (p.trigger === 'auto' && p.custom_instructions !== '') fail(where, 'auto compaction with custom instructions');
        break;
      case 'Stop':
        if (p.stop_hook_active !== false) fail(where, 'Stop stop_hook_active should be false');
        if (!str(p.last_assistant_message)) fail(where, 'Stop without last_assistant_message');
        break;
      case 'SubagentStop':
        if (!nonEmpty(p.agent_transcript_path)) fail(where, 'SubagentStop without agent_transcript_path');
        if (!nonEmpty(p.agent_type)) fail(where, 'SubagentStop without agent_type');
        break;
      case 'SessionEnd':
        if (!END_REASONS.includes(p.reason)) fail(where, `SessionEnd reason ${JSON.stringify(p.reason)}`);
        break;
    }
    s.events.push({ where, at, hook, p });
  }

  // Shape of the session as a whole.
  const ev = s.events;
  if (ev.length === 0) { fail(file, 'empty'); continue; }
  if (ev[0].hook !== 'SessionStart') fail(ev[0].where, 'a session must open with SessionStart');
  if (ev[0].hook === 'SessionStart' && ev[0].p.source === 'compact') fail(ev[0].where, 'a session cannot open with a compact SessionStart');
  for (const [i, e] of ev.entries()) {
    if (e.hook === 'SessionEnd' && i !== ev.length - 1) fail(e.where, 'SessionEnd before the last line');
    if (e.hook === 'PreCompact' && !(ev[i + 1]?.hook === 'SessionStart' && ev[i + 1].p.source === 'compact')) fail(e.where, 'PreCompact not followed by SessionStart(source: compact)');
    if (e.hook === 'SessionStart' && i > 0 && !(e.p.source === 'compact' && ev[i - 1].hook === 'PreCompact')) fail(e.where, 'SessionStart mid-session that is not the compact one after PreCompact');
  }
  const prevFile = seenSessionIds.get(s.sessionId);
  if (prevFile && ev[0].p.source !== 'resume') fail(file, `reuses session_id ${s.sessionId} of ${prevFile} without SessionStart(source: resume)`);
  if (!prevFile) seenSessionIds.set(s.sessionId, file);
  s.resumes = prevFile;
  if (m && str(s.cwd) && !m[2].startsWith(basename(s.cwd) + '-')) {
    fail(file, `file name does not start with the project ${basename(s.cwd)}`);
  }
  sessions.push(s);
}

// Chronological order of files by first `at`; a session does not start before the previous one ended.
for (let i = 1; i < sessions.length; i++) {
  const a = sessions[i - 1];
  const b = sessions[i];
  if (a.firstAt && b.firstAt && Date.parse(b.firstAt) <= Date.parse(a.firstAt)) fail(b.file, `starts ${b.firstAt}, not after ${a.file} (${a.firstAt})`);
}
for (const s of sessions) {
  if (!s.resumes) continue;
  const original = sessions.find((o) => o.file === s.resumes);
  if (original && Date.parse(s.firstAt) <= Date.parse(original.lastAt)) fail(s.file, `resume starts ${s.firstAt}, before ${original.file} ended (${original.lastAt})`);
}

// Planted secrets: every line of SECRETS.txt must occur somewhere, or the redaction test proves nothing.
const secretsFile = join(dir, 'SECRETS.txt');
let secrets = [];
if (existsSync(secretsFile)) {
  secrets = readFileSync(secretsFile, 'utf8').split('\n').filter((l) => l.length > 0);
  const all = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
  for (const secret of secrets) {
    if (!all.includes(JSON.stringify(secret).slice(1, -1))) fail('SECRETS.txt', `not planted in any fixture: ${secret}`);
  }
}

function checkToolInput(where, tool, input) {
  const need = {
    Bash: ['command'],
    Read: ['file_path'],
    Edit: ['file_path', 'old_string', 'new_string'],
    Write: ['file_path', 'content'],
    Grep: ['pattern'],
    Glob: ['pattern'],
    WebFetch: ['url', 'prompt'],
    Task: ['description', 'prompt', 'subagent_type'],
    Skill: ['skill'],
    KillShell: ['shell_id'],
    BashOutput: ['bash_id'],
  }[tool];
  if (tool === 'TodoWrite') {
    if (!Array.isArray(input.todos)) fail(where, 'TodoWrite without todos[]');
    return;
  }
  for (const k of need ?? []) if (!str(input[k])) fail(where, `${tool} tool_input.${k} missing`);
  for (const k of ['file_path', 'path']) if (str(input[k]) && !input[k].startsWith('/')) fail(where, `${tool} tool_input.${k} is not absolute: ${input[k]}`);
}

// ---- summary ----
const count = (pred) => sessions.reduce((n, s) => n + s.events.filter(pred).length, 0);
const perHook = Object.fromEntries(HOOKS.map((h) => [h, count((e) => e.hook === h)]));
const toolCalls = perHook.PostToolUse + perHook.PostToolUseFailure;
const byProject = {};
for (const s of sessions) byProject[s.cwd] = (byProject[s.cwd] ?? 0) + 1;
const toolNames = {};
for (const s of sessions) for (const e of s.events) if (e.p.tool_name && !e.p.agent_id) toolNames[e.p.tool_name] = (toolNames[e.p.tool_name] ?? 0) + 1;
const subagentTools = count((e) => (e.hook === 'PostToolUse' || e.hook === 'PostToolUseFailure') && e.p.agent_id);
const unknown = {};
for (const s of sessions) for (const e of s.events) {
  for (const k of Object.keys(e.p)) if (!COMMON.includes(k) && !KNOWN[e.hook].includes(k)) unknown[k] = (unknown[k] ?? 0) + 1;
}
const toolsPerSession = sessions.map((s) => s.events.filter((e) => e.hook.startsWith('PostToolUse')).length);
const reasons = {};
for (const s of sessions) { const last = s.events.at(-1); if (last?.hook === 'SessionEnd') reasons[last.p.reason] = (reasons[last.p.reason] ?? 0) + 1; }
const list = (arr) => (arr.length ? arr.join(', ') : '-');
const failures = perHook.PostToolUseFailure;

console.log(`fixtures: ${dir}`);
console.log(`sessions: ${sessions.length} files, ${seenSessionIds.size} distinct session ids, ${sessions[0]?.firstAt ?? '?'} .. ${sessions.at(-1)?.lastAt ?? '?'}`);
console.log(`projects: ${Object.keys(byProject).length}`);
for (const [cwd, n] of Object.entries(byProject)) console.log(`  ${cwd.padEnd(30)} ${n}`);
console.log(`prompts: ${perHook.UserPromptSubmit}`);
console.log(`tool calls: ${toolCalls} (${subagentTools} by subagents; per session min ${Math.min(...toolsPerSession)}, max ${Math.max(...toolsPerSession)})`);
console.log(`failures: ${failures} (${toolCalls ? ((100 * failures) / toolCalls).toFixed(1) : 0} %, ${count((e) => e.p.is_interrupt === true)} interrupted)`);
console.log('per hook:');
for (const h of HOOKS) console.log(`  ${h.padEnd(20)} ${perHook[h]}`);
console.log(`tools: ${Object.entries(toolNames).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`session ends: ${Object.entries(reasons).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`without SessionEnd: ${list(sessions.filter((s) => s.events.at(-1)?.hook !== 'SessionEnd').map((s) => `${s.file} (last: ${s.events.at(-1)?.hook})`))}`);
console.log(`resumed: ${list(sessions.filter((s) => s.resumes).map((s) => `${s.file} resumes ${s.resumes}`))}`);
console.log(`started by /clear: ${list(sessions.filter((s) => s.events[0]?.p.source === 'clear').map((s) => s.file))}`);
console.log(`compacted: ${list(sessions.filter((s) => s.events.some((e) => e.hook === 'PreCompact')).map((s) => `${s.file} (${s.events.find((e) => e.hook === 'PreCompact').p.trigger})`))}`);
console.log(`subagents: ${list(sessions.filter((s) => s.events.some((e) => e.hook === 'SubagentStop')).map((s) => `${s.file} (${s.events.filter((e) => e.hook === 'SubagentStop').map((e) => e.p.agent_type).join(', ')})`))}`);
console.log(`skills: ${list(sessions.filter((s) => s.events.some((e) => e.p.tool_name === 'Skill')).map((s) => `${s.file} (${s.events.filter((e) => e.p.tool_name === 'Skill').map((e) => e.p.tool_input.skill).join(', ')})`))}`);
console.log(`unknown payload fields: ${list(Object.entries(unknown).map(([k, v]) => `${k} ${v}`))}`);
console.log(`planted secrets: ${secrets.length}${existsSync(secretsFile) ? '' : ' (no SECRETS.txt)'}`);

if (errors.length) {
  console.error(`\n${errors.length} error(s):`);
  for (const e of errors) console.error(`  ${e}`);
  process.exit(1);
}
console.log('\nok');
