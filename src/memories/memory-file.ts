import { basename } from 'node:path';
import { Document, isMap, isScalar, isSeq, parseDocument, YAMLMap, type Node, type Pair } from 'yaml';
import { EngramError } from '../errors.js';
import { findFrontmatter } from './frontmatter-block.js';
import { fieldSchemas, homeOf, METADATA_FIELDS, TOP_FIELDS, type KnownField, type KnownValues } from './memory-fields.js';
import type { MemoryStatus, MemoryType, Tier } from '../events/memory-kinds.js';
import { hasComment, isPlainValue, isUnsafeInteger, keyOf, stringifyMapping, toPlain, type YamlValue } from './yaml-values.js';

export type { YamlValue } from './yaml-values.js';

/**
 * One memory file in Claude Code's format (DESIGN.md "Memory files"): YAML frontmatter with
 * `name`, `description`, `type`, and under `metadata:` Claude Code's `modified` beside engram's
 * fields; then a markdown body. Worker-side: hooks must not import this (it loads `yaml`).
 */

/** A field engram does not know, kept where it was (top level or under `metadata:`) and in its order. */
export interface ExtraField {
  key: string;
  value: YamlValue;
  /** Written as `[a, b]` / `{a: 1}` rather than as indented lines; kept so when written back. */
  flow?: true;
}

export interface MemoryFileContent {
  /** Required and non-blank. */
  name: string;
  /** '' when the file has none. */
  description: string;
  /** `unknown`: the file has no type engram knows; then no `type` is written. */
  type: MemoryType;
  /** Claude Code's last-modified stamp. Dates are kept as written (ISO 8601, date or date and time). */
  modified?: string;
  tier?: Tier;
  /** 0 to 1. */
  confidence?: number;
  /** How many times the memory was reinforced: an integer ≥ 0. */
  reinforced?: number;
  last_reinforced?: string;
  status?: MemoryStatus;
  /** What this memory contradicts: one name or a list, kept in the shape it was written in. */
  contradicts?: string | string[];
  superseded_by?: string;
  superseded_at?: string;
  implemented_in?: string | string[];
  pinned?: boolean;
  created?: string;
  origin_session?: string;
  /**
   * Every other field, in the order it was written: `top` at the top level, `metadata` under
   * `metadata:`. A known field whose value is not valid is kept here too, under its own key.
   */
  extra: { top: ExtraField[]; metadata: ExtraField[] };
  /** Everything after the closing `---` line, byte for byte (a leading blank line included). */
  body: string;
}

export interface ParsedMemoryFile extends MemoryFileContent {
  /** The file starts with a `---` line. */
  hadFrontmatter: boolean;
  /**
   * Why the frontmatter could not be read (no closing `---`, invalid YAML, not a mapping, a binary
   * file). Then `type` is `unknown`, `body` is the whole text, the name comes from the file name,
   * and the file must never be written back.
   */
  malformed?: string;
  /**
   * Why the file, though read, must not be written back: writing it would lose or change
   * something engram cannot carry (comments in the frontmatter, anchors, tags, keys that are not
   * text, a `metadata:` that is not a mapping, a name that is not text…).
   */
  readOnly?: string;
  /** What was odd but read anyway: fields missing, invalid values kept as extras, duplicates. */
  warnings: string[];
}

const PARSE_OPTIONS = { version: '1.2', schema: 'core', uniqueKeys: true, strict: true, prettyErrors: false } as const;

/** Whether engram may write this file back (render it and replace the file). */
export function canWriteBack(parsed: ParsedMemoryFile): boolean {
  return parsed.malformed === undefined && parsed.readOnly === undefined;
}

/**
 * Reads one memory file. Never throws: what cannot be read is reported in `malformed`,
 * `readOnly` and `warnings`. `fileName` (a name or a path) names the memory when the frontmatter
 * does not.
 */
export function parseMemoryFile(text: string, fileName: string): ParsedMemoryFile {
  const fallbackName = nameFromFile(fileName);
  if (text.includes('\u0000')) return malformed(text, fallbackName, false, 'binary: the file contains NUL bytes');
  const warnings: string[] = [];
  let source = text;
  if (source.startsWith('\uFEFF')) {
    source = source.slice(1);
    warnings.push('starts with a UTF-8 byte order mark, which engram does not write back');
  }
  const block = findFrontmatter(source);
  if (block.kind === 'none') {
    warnings.push(source === '' ? 'empty file' : 'no frontmatter');
    warnings.push('no name: named after the file');
    const content = emptyContent(fallbackName, source);
    return block.strayDelimiter
      ? { ...content, hadFrontmatter: false, readOnly: 'a --- block after blank lines, which is not frontmatter: writing one above it would leave two', warnings }
      : { ...content, hadFrontmatter: false, warnings };
  }
  if (block.kind === 'unclosed') return malformed(text, fallbackName, true, 'the frontmatter has no closing --- line');

  const doc = parseDocument(block.yaml, PARSE_OPTIONS);
  const error = doc.errors[0];
  if (error) {
    const line = 1 + lineOf(block.yaml, error.pos[0]);
    return malformed(text, fallbackName, true, `invalid YAML at line ${line} of the file: ${error.message.split('\n')[0]}`);
  }
  const root = doc.contents;
  if (root !== null && !isMap(root)) {
    return malformed(text, fallbackName, true, `the frontmatter is ${isScalar(root) ? 'a single value' : 'a list'}, not fields`);
  }
  return readFields(root, doc, block.body, fallbackName, warnings);
}

function readFields(root: YAMLMap | null, doc: Document, body: string, fallbackName: string, warnings: string[]): ParsedMemoryFile {
  const unfaithful: string[] = [];
  const note = (why: string) => unfaithful.push(why);
  for (const w of doc.warnings) warnings.push(`YAML: ${w.message.split('\n')[0]}`);
  if (doc.commentBefore || doc.comment || (root && hasComment(root))) note('comments in the frontmatter');

  const top = entries(root, note);
  const metaAt = top.findIndex((e) => e.key === 'metadata');
  let meta: Entry[] = [];
  if (metaAt >= 0) {
    const node = top[metaAt]!.node;
    if (isMap(node)) meta = entries(node, note);
    else if (node === null || (isScalar(node) && node.value === null)) warnings.push('metadata: is empty');
    else note('a metadata: that is not a mapping');
    top.splice(metaAt, 1);
  }

  const known: KnownValues = {};
  const extra: MemoryFileContent['extra'] = { top: [], metadata: [] };
  const claimed = new Set<Entry>();
  for (const field of [...TOP_FIELDS, ...METADATA_FIELDS]) {
    const home = homeOf(field) === 'top' ? top : meta;
    const away = homeOf(field) === 'top' ? meta : top;
    const atHome = home.find((e) => e.key === field);
    const abroad = away.find((e) => e.key === field);
    const chosen = atHome ?? abroad;
    if (!chosen) continue;
    claimed.add(chosen);
    if (atHome && abroad) {
      warnings.push(`${field} is both at the top and under metadata: the one ${homeOf(field) === 'top' ? 'at the top' : 'under metadata'} is read, the other kept as is`);
    }
    const read = readKnown(field, chosen.node, warnings, note);
    if (read.keep) claimed.delete(chosen);
    else if (read.value !== undefined) (known as Record<string, unknown>)[field] = read.value;
  }
  for (const [list, into] of [
    [top, extra.top],
    [meta, extra.metadata],
  ] as const) {
    for (const entry of list) {
      if (claimed.has(entry)) continue;
      const plain = toPlain(entry.node);
      if (plain.unfaithful) note(plain.unfaithful);
      // An empty collection is always written `[]` / `{}`, so flow says nothing about it.
      const flow = (isMap(entry.node) || isSeq(entry.node)) && entry.node.flow === true && entry.node.items.length > 0;
      into.push(flow ? { key: entry.key, value: plain.value, flow: true } : { key: entry.key, value: plain.value });
    }
  }

  if (known.name === undefined) warnings.push('no name: named after the file');
  if (known.description === undefined) warnings.push('no description');
  if (known.type === undefined) warnings.push('no type engram knows');
  const content: MemoryFileContent = {
    ...known,
    name: known.name ?? fallbackName,
    description: known.description ?? '',
    type: known.type ?? 'unknown',
    extra,
    body,
  };
  const parsed: ParsedMemoryFile = { ...ordered(content), hadFrontmatter: true, warnings };
  if (unfaithful.length > 0) parsed.readOnly = `writing it back would change it: ${[...new Set(unfaithful)].join('; ')}`;
  return parsed;
}

interface Entry {
  key: string;
  node: unknown;
}

function entries(map: YAMLMap | null, note: (why: string) => void): Entry[] {
  if (!map) return [];
  return (map.items as Pair[]).map((pair) => ({ key: keyOf(pair.key, note), node: pair.value }));
}

/**
 * A known field's value; or `keep`: it is not valid, and stays an extra under its own key (a
 * warning says why). An empty name, description or type is dropped: the first two are always
 * written, the last means unknown. A name or description that is not text at all makes the file
 * read-only, since writing the field would replace the odd value.
 */
function readKnown(field: KnownField, node: unknown, warnings: string[], note: (why: string) => void): { value?: unknown; keep?: true } {
  const plain = toPlain(node);
  if (plain.unfaithful) note(plain.unfaithful);
  let value = plain.value;
  const isTop = homeOf(field) === 'top';
  if (value === null || (isTop && typeof value === 'string' && value.trim() === '' && field !== 'description')) {
    return isTop ? {} : { keep: true };
  }
  if ((field === 'name' || field === 'description') && (typeof value === 'number' || typeof value === 'boolean')) {
    value = isScalar(node) && typeof node.source === 'string' ? node.source : String(value);
    warnings.push(`${field} is not text (${value}); read as text`);
  }
  const result = fieldSchemas[field].safeParse(value);
  if (result.success) return { value: result.data };
  if (field === 'name' || field === 'description') note(`a ${field} that is not text`);
  const shown = JSON.stringify(value);
  warnings.push(`${field}: ${shown && shown.length > 60 ? `${shown.slice(0, 57)}...` : shown} is not valid (${result.error.issues[0]?.message ?? 'invalid'}); kept as an unknown field`);
  return { keep: true };
}

function malformed(text: string, name: string, hadFrontmatter: boolean, why: string): ParsedMemoryFile {
  return { ...emptyContent(name, text), hadFrontmatter, malformed: why, warnings: [] };
}

function emptyContent(name: string, body: string): MemoryFileContent {
  return { name, description: '', type: 'unknown', extra: { top: [], metadata: [] }, body };
}

/** The file name without `.md`: what Claude Code's own files are named after. */
function nameFromFile(fileName: string): string {
  const base = basename(fileName).replace(/\.md$/i, '');
  return base.trim() === '' ? basename(fileName) || 'memory' : base;
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The content's keys in one fixed order, so equal contents compare and serialise alike. */
function ordered(content: MemoryFileContent): MemoryFileContent {
  const out: Record<string, unknown> = {};
  for (const field of [...TOP_FIELDS, ...METADATA_FIELDS]) {
    if (content[field] !== undefined) out[field] = content[field];
  }
  out.extra = content.extra;
  out.body = content.body;
  return out as unknown as MemoryFileContent;
}

/**
 * The file for a memory: `---`, `name`, `description` (left out when empty), `type` (left out
 * when `unknown`), the unknown top-level fields, `metadata:` with `modified`, engram's fields and
 * the unknown metadata fields, `---`, then the body byte for byte. The same content always gives the same bytes. The
 * frontmatter's line breaks follow the body's (CRLF when the body's first line break is CRLF).
 * An extra under the same key as a field being written is replaced by it: setting a field
 * supersedes an invalid value that was kept. Throws MEMORY_FILE_UNWRITABLE for a parse result
 * that must not be written back, MEMORY_FILE_INVALID for content that is not valid.
 */
export function renderMemoryFile(content: MemoryFileContent): string {
  const parsed = content as Partial<ParsedMemoryFile>;
  if (parsed.malformed !== undefined || parsed.readOnly !== undefined) {
    throw new EngramError('MEMORY_FILE_UNWRITABLE', `memory file ${JSON.stringify(content.name)} must not be written back: ${parsed.malformed ?? parsed.readOnly}`);
  }
  validate(content);
  const doc = new Document();
  const topMap = new YAMLMap();
  doc.contents = topMap;
  const metaMap = new YAMLMap();
  const written = { top: new Set<string>(), metadata: new Set<string>() };
  for (const field of [...TOP_FIELDS, ...METADATA_FIELDS]) {
    const value = content[field];
    // An unknown type and an empty description say nothing a reader needs; leaving them out keeps
    // Claude Code's vocabulary clean and a file without them as it was.
    if (value === undefined || (field === 'type' && value === 'unknown') || (field === 'description' && value === '')) continue;
    const where = homeOf(field);
    (where === 'top' ? topMap : metaMap).add(doc.createPair(field, value));
    written[where].add(field);
  }
  for (const { key, value, flow } of content.extra.top) {
    if (!written.top.has(key)) topMap.add(doc.createPair(key, flowNode(doc, value, flow)));
  }
  for (const { key, value, flow } of content.extra.metadata) {
    if (!written.metadata.has(key)) metaMap.add(doc.createPair(key, flowNode(doc, value, flow)));
  }
  if (metaMap.items.length > 0) topMap.add(doc.createPair('metadata', metaMap));
  const eol = /^[^\n]*\r\n/.test(content.body) ? '\r\n' : '\n';
  const yaml = stringifyMapping(doc);
  const frontmatter = `---\n${yaml}---\n`;
  return (eol === '\n' ? frontmatter : frontmatter.replace(/\n/g, '\r\n')) + content.body;
}

function flowNode(doc: Document, value: YamlValue, flow: true | undefined): Node {
  const node = doc.createNode(value) as Node;
  if (flow && (isMap(node) || isSeq(node))) node.flow = true;
  return node;
}

function validate(content: MemoryFileContent): void {
  const invalid = (why: string) => new EngramError('MEMORY_FILE_INVALID', `memory file ${JSON.stringify(content.name)}: ${why}`);
  if (typeof content.name !== 'string' || typeof content.description !== 'string' || typeof content.body !== 'string') {
    throw invalid('name, description and body must be text');
  }
  for (const field of [...TOP_FIELDS, ...METADATA_FIELDS]) {
    const value = content[field];
    if (value === undefined) continue;
    const result = fieldSchemas[field].safeParse(value);
    if (!result.success) throw invalid(`${field}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  }
  const texts = [content.name, content.description, content.body];
  for (const where of ['top', 'metadata'] as const) {
    const seen = new Set<string>();
    for (const field of content.extra[where]) {
      if (typeof field.key !== 'string') throw invalid('an extra field whose key is not text');
      if (seen.has(field.key)) throw invalid(`extra field ${JSON.stringify(field.key)} appears twice under ${where}`);
      if (where === 'top' && field.key === 'metadata') throw invalid('an extra top-level field named metadata');
      if (!isPlainValue(field.value)) throw invalid(`extra field ${JSON.stringify(field.key)} is not plain YAML data`);
      if (hasUnsafeInteger(field.value)) throw invalid(`extra field ${JSON.stringify(field.key)} holds an integer beyond 2^53, which readers cannot keep exactly`);
      seen.add(field.key);
      texts.push(field.key);
      collectStrings(field.value, texts);
    }
  }
  if (texts.some((t) => t.includes('\u0000'))) throw invalid('NUL bytes, which would make the file read as binary');
  if (texts.some((t) => LONE_SURROGATE.test(t))) throw invalid('text that is not valid Unicode (a lone surrogate), which UTF-8 cannot hold');
}

const LONE_SURROGATE = /\p{Cs}/u;

function hasUnsafeInteger(value: YamlValue): boolean {
  if (typeof value === 'number') return isUnsafeInteger(value);
  if (Array.isArray(value)) return value.some(hasUnsafeInteger);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasUnsafeInteger);
  return false;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      collectStrings(v, into);
    }
  }
}

