import { analyze } from './query-words.js';

/**
 * What kind of tool a developer's brand name is: a memory that names pnpm is about the package
 * manager, so "which package manager should I use for installs" finds "No, I told you to use
 * pnpm here, not npm", which shares none of its topic words. Added to the memory's entities
 * when it is indexed (recall-doc.ts), at write time, so a prompt costs nothing more and the hook's
 * fallback ranks alike. A small closed table of common tools, not a thesaurus: each kind is words
 * a question about it uses, each member a name that means that kind and little else (no `bun`,
 * `gem`, `brew`, `poetry` or `black`: ordinary words too, and a conversation about bread is not
 * about installs).
 */
const KINDS: ReadonlyArray<readonly [kind: string, members: string]> = [
  ['package manager, installs dependencies', 'npm pnpm yarn pip pipenv cargo bundler maven gradle nuget conda homebrew corepack'],
  ['test runner, tests', 'jest vitest mocha pytest rspec junit phpunit playwright cypress'],
  ['database', 'postgres postgresql mysql mariadb sqlite mongodb redis dynamodb leveldb lancedb supabase'],
  ['bundler, build', 'webpack vite esbuild rollup turbopack tsup'],
  ['linter, formatter, lint, format', 'eslint prettier biome ruff flake8 pylint rubocop stylelint clippy rustfmt gofmt'],
  ['continuous integration, CI pipeline', 'jenkins circleci buildkite'],
  ['container', 'docker podman kubernetes k8s'],
];

const BY_MEMBER: ReadonlyMap<string, string> = new Map(KINDS.flatMap(([kind, members]) => members.split(' ').map((member) => [analyze(member)[0] ?? member, kind] as const)));

/** The kinds of tools `text` names, each once, in table order. */
export function toolKinds(text: string): string[] {
  const named = new Set<string>();
  for (const word of analyze(text)) {
    const kind = BY_MEMBER.get(word);
    if (kind) named.add(kind);
  }
  return KINDS.map(([kind]) => kind).filter((kind) => named.has(kind));
}
