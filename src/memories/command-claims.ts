/** Packages and branches that shell commands name: install commands and git commands, in fences and inline code. */
import { branchClaim, packageClaim, type BranchClaim, type Claim, type PackageClaim, type PackageEcosystem } from './claim-kinds.js';
import { NPM_NAME } from './claim-vocabulary.js';
import type { Word } from './markdown-spans.js';

/** Packages and branches a shell line names; `offset` is where the line starts in the body. */
export function commandClaims(line: string, offset: number): Claim[] {
  const claims: Claim[] = [];
  for (const words of shellSegments(line, offset)) {
    const packages = installedPackages(words);
    if (packages) claims.push(...packages);
    const branch = gitBranch(words);
    if (branch) claims.push(branch);
  }
  return claims;
}

/** Words of each simple command of a line (split at `&&`, `||`, `;`, `|`), quotes removed. */
function shellSegments(line: string, offset: number): Word[][] {
  const segments: Word[][] = [[]];
  for (const match of line.matchAll(/&&|\|\||[;|]|[^\s;|&]+(?:&(?!&)[^\s;|&]*)*/g)) {
    if (/^(?:&&|\|\||;|\|)$/.test(match[0])) {
      segments.push([]);
      continue;
    }
    let text = match[0];
    let start = offset + match.index;
    const quoted = /^(['"])(.*)\1$/.exec(text);
    if (quoted) {
      text = quoted[2]!;
      start++;
    }
    segments[segments.length - 1]!.push({ text, start });
  }
  return segments.map((words) => {
    // `sudo`, `FOO=1` and the like in front of the program.
    let i = 0;
    while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.text) || words[i]!.text === 'sudo' || words[i]!.text === 'time')) i++;
    return words.slice(i);
  });
}

interface Installer {
  readonly ecosystem: Exclude<PackageEcosystem, 'any'>;
  /** Subcommands that add a package to the project. */
  readonly add: readonly string[];
  /** Subcommands that install a program for the machine, not the project. */
  readonly global?: readonly string[];
  /** Options that take the next word as their value. */
  readonly valued: readonly string[];
}

const INSTALLERS: Readonly<Record<string, Installer>> = {
  npm: { ecosystem: 'npm', add: ['i', 'install', 'add', 'in'], valued: ['-w', '--workspace', '--prefix', '--registry', '--tag', '--omit', '--include'] },
  pnpm: { ecosystem: 'npm', add: ['add', 'i', 'install'], valued: ['-F', '--filter', '-C', '--dir', '--registry', '-w'] },
  yarn: { ecosystem: 'npm', add: ['add'], global: ['global'], valued: ['--cwd', '--registry'] },
  bun: { ecosystem: 'npm', add: ['add', 'i', 'install'], valued: ['--cwd'] },
  pip: { ecosystem: 'pypi', add: ['install'], valued: ['-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-t', '--target', '-e', '--editable', '-f', '--find-links'] },
  pip3: { ecosystem: 'pypi', add: ['install'], valued: ['-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-t', '--target', '-e', '--editable', '-f', '--find-links'] },
  poetry: { ecosystem: 'pypi', add: ['add'], valued: ['-G', '--group', '-E', '--extras', '--source'] },
  uv: { ecosystem: 'pypi', add: ['add'], valued: ['--group', '--optional', '--package', '-r', '--requirements'] },
  pipx: { ecosystem: 'pypi', add: [], global: ['install'], valued: [] },
  cargo: { ecosystem: 'cargo', add: ['add'], global: ['install'], valued: ['-p', '--package', '-F', '--features', '--rename', '--registry', '--git', '--branch', '--tag', '--rev', '--path'] },
  go: { ecosystem: 'go', add: ['get'], global: ['install'], valued: [] },
  gem: { ecosystem: 'gem', add: [], global: ['install'], valued: ['-v', '--version', '-s', '--source'] },
  bundle: { ecosystem: 'gem', add: ['add'], valued: ['-v', '--version', '-g', '--group', '-s', '--source'] },
  composer: { ecosystem: 'composer', add: ['require'], global: ['global'], valued: ['--working-dir', '-d'] },
};

function installedPackages(words: readonly Word[]): PackageClaim[] | undefined {
  let rest = words;
  // `python -m pip install`, `uv pip install`
  if (/^python[0-9.]*$/.test(rest[0]?.text ?? '') && rest[1]?.text === '-m' && rest[2]?.text === 'pip') rest = rest.slice(2);
  else if (rest[0]?.text === 'uv' && rest[1]?.text === 'pip') rest = rest.slice(1);
  const installer = INSTALLERS[rest[0]?.text ?? ''];
  if (!installer) return undefined;
  let i = 1;
  const skipOptions = () => {
    while (i < rest.length && rest[i]!.text.startsWith('-')) {
      i += installer.valued.includes(rest[i]!.text) ? 2 : 1;
    }
  };
  skipOptions();
  const sub = rest[i]?.text ?? '';
  let global = false;
  if (installer.global?.includes(sub)) {
    global = true;
    i++;
    // `yarn global add x`, `composer global require x`
    if (installer.add.includes(rest[i]?.text ?? '')) i++;
  } else if (installer.add.includes(sub)) {
    i++;
  } else {
    return undefined;
  }
  const claims: PackageClaim[] = [];
  for (; i < rest.length; i++) {
    const word = rest[i]!;
    if (word.text.startsWith('-')) {
      if (word.text === '-g' || word.text === '--global' || word.text === '--user') global = true;
      if (installer.valued.includes(word.text)) i++;
      continue;
    }
    const name = packageName(word.text, installer.ecosystem);
    if (!name) continue;
    const start = word.start + word.text.indexOf(name);
    claims.push(packageClaim(name, { start, end: start + name.length }, installer.ecosystem, global ? 'installed for the machine, not the project' : undefined));
  }
  return claims;
}

/** The package a command-line argument names, without its version; undefined for paths, URLs. */
function packageName(arg: string, ecosystem: Installer['ecosystem']): string | undefined {
  if (/^(?:\.{0,2}\/|~|[a-z+]+:)/i.test(arg) || arg === '.' || arg.endsWith('.txt') || arg.endsWith('.whl') || arg.endsWith('.tgz')) return undefined;
  switch (ecosystem) {
    case 'npm': {
      const name = /^(@[^@/\s]+\/[^@/\s]+|[^@/\s]+)(?:@.*)?$/.exec(arg)?.[1];
      return name && NPM_NAME.test(name) ? name : undefined;
    }
    case 'pypi': {
      const name = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:\s*(?:==|>=|<=|~=|!=|>|<).*)?$/.exec(arg)?.[1];
      return name && /[A-Za-z]/.test(name) ? name : undefined;
    }
    case 'cargo':
    case 'gem': {
      const name = /^([A-Za-z0-9][A-Za-z0-9_-]*)(?:@.*|:.*)?$/.exec(arg)?.[1];
      return name && /[A-Za-z]/.test(name) ? name : undefined;
    }
    case 'go': {
      const name = /^([a-z0-9.-]+\.[a-z]{2,}(?:\/[A-Za-z0-9._~-]+)+)(?:@.*)?$/.exec(arg)?.[1];
      return name;
    }
    case 'composer': {
      const name = /^([a-z0-9_.-]+\/[a-z0-9_.-]+)(?::.*)?$/.exec(arg)?.[1];
      return name;
    }
  }
}

/** `git checkout -b X`, `git switch [-c] X`, `git branch X`, `git push [-u] <remote> X`. */
function gitBranch(words: readonly Word[]): BranchClaim | undefined {
  if (words[0]?.text !== 'git') return undefined;
  let i = 1;
  while (i < words.length && words[i]!.text.startsWith('-')) i += words[i]!.text === '-C' || words[i]!.text === '-c' ? 2 : 1;
  const sub = words[i]?.text;
  const args = words.slice(i + 1);
  let name: Word | undefined;
  if (sub === 'checkout') {
    const flag = args.findIndex((word) => word.text === '-b' || word.text === '-B');
    if (flag >= 0) name = args[flag + 1];
  } else if (sub === 'switch') {
    const flag = args.findIndex((word) => word.text === '-c' || word.text === '-C' || word.text === '--create');
    name = flag >= 0 ? args[flag + 1] : args.find((word) => !word.text.startsWith('-'));
  } else if (sub === 'branch') {
    if (args.some((word) => /^-(?:d|D|m|M|c|C|r|a|l|-list|-delete|-move|-copy|-all|-remotes|-contains|-merged|-no-merged|-show-current)$/.test(word.text))) return undefined;
    name = args.find((word) => !word.text.startsWith('-'));
  } else if (sub === 'push') {
    const positional = args.filter((word) => !word.text.startsWith('-'));
    name = positional.length >= 2 ? positional[1] : undefined;
  }
  if (!name || name.text.includes(':') || name.text === 'HEAD' || name.text === '-' || name.text === '@') return undefined;
  return branchClaim(name.text, { start: name.start, end: name.start + name.text.length });
}
