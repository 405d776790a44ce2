import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { parse } from 'yaml';
import { contentHash } from '../content-hash.js';
import { findFrontmatter } from '../memories/frontmatter-block.js';
import type { OwnSkill } from '../projections/skills/skill-rows.js';

/** Longest SKILL.md read; a bigger one is nobody's hand-written skill and is left out. */
const SKILL_FILE_BYTES = 256 * 1024;

export interface SkillRoots {
  /** Claude Code's config directory: `<claude>/skills` holds the user's skills, `<claude>/plugins` the plugins' copies. */
  claude: string;
  /**
   * Install manifests (JSON whose `skills` object is keyed by skill name) naming skills an
   * installer manages. Default: `<claude>/SKILLS.lock`, and for a project its `skills-lock.json`,
   * `skills.lock` and `.claude/SKILLS.lock`; the worker adds `~/.agents/.skill-lock.json` (the
   * `npx skills` installer's).
   */
  userManifests?: readonly string[];
}

/** Where a scope's skills live: `<claude>/skills` for the user (project ''), else `<project>/.claude/skills`. */
export function skillsRoot(roots: Pick<SkillRoots, 'claude'>, project: string): string {
  return project === '' ? join(roots.claude, 'skills') : join(project, '.claude', 'skills');
}

/**
 * The user's own skills of one scope, sorted by name: each directory of the scope's root with a
 * SKILL.md, except what a plugin or an installer manages (DESIGN.md "Skills": only own skills are
 * suggested and curated) — a directory that is a link to somewhere else (installers and plugin
 * managers link their copies in), one inside `<claude>/plugins`, or one an install manifest names.
 * Never throws: an unreadable directory or file is left out.
 */
export function readOwnSkills(roots: SkillRoots, project: string): OwnSkill[] {
  const root = skillsRoot(roots, project);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const managed = manifestNames(project === '' ? [join(roots.claude, 'SKILLS.lock'), ...(roots.userManifests ?? [])] : [join(project, 'skills-lock.json'), join(project, 'skills.lock'), join(project, '.claude', 'SKILLS.lock')]);
  const plugins = join(roots.claude, 'plugins') + sep;
  const skills: OwnSkill[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.') || name.startsWith('_') || managed.has(name)) continue;
    const dir = join(root, name);
    try {
      if (lstatSync(dir).isSymbolicLink()) continue;
      if ((realpathSync(dir) + sep).startsWith(plugins)) continue;
      const text = readSkillFile(join(dir, 'SKILL.md'));
      if (text !== undefined) skills.push({ name, scope: project === '' ? 'user' : 'project', ...skillFacts(text) });
    } catch {
      // Gone or unreadable since the listing: not a skill to suggest or age.
    }
  }
  return skills;
}

function readSkillFile(path: string): string | undefined {
  const stat = lstatSync(path);
  if (!stat.isFile() || stat.size > SKILL_FILE_BYTES) return undefined;
  return readFileSync(path, 'utf8');
}

/** What a SKILL.md's frontmatter says; YAML that does not parse says nothing, the file is still a skill. */
export function skillFacts(text: string): Pick<OwnSkill, 'description' | 'hash' | 'captured' | 'pinned'> {
  const hash = contentHash(text);
  const block = findFrontmatter(text.startsWith('\uFEFF') ? text.slice(1) : text);
  let fields: Record<string, unknown> = {};
  if (block.kind === 'block') {
    try {
      const parsed: unknown = parse(block.yaml);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
    } catch {
      fields = {};
    }
  }
  const metadata = fields.metadata && typeof fields.metadata === 'object' ? (fields.metadata as Record<string, unknown>) : {};
  const description = typeof fields.description === 'string' ? fields.description.replace(/\s+/g, ' ').trim().slice(0, 1000) : '';
  return {
    description,
    hash,
    captured: fields.engram === 'captured' || metadata.engram === 'captured',
    pinned: fields.pinned === true || metadata.pinned === true,
  };
}

function manifestNames(paths: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const path of paths) {
    try {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { skills?: unknown };
      if (manifest.skills && typeof manifest.skills === 'object') for (const name of Object.keys(manifest.skills)) names.add(name);
    } catch {
      // No manifest there, or not one we can read: it names nothing.
    }
  }
  return names;
}
