import { cpSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './temp-home.js';

/** The build id stamped into dist by `npm run build`. */
export function currentBuild(): string {
  const match = /"([^"]+)"/.exec(readFileSync(join(repoRoot, 'dist', 'src', 'build-id.js'), 'utf8'));
  if (!match) throw new Error('dist/src/build-id.js carries no build id: run `npm run build`');
  return match[1]!;
}

export interface OlderBuild {
  build: string;
  cli: string;
  hooksDir: string;
}

/**
 * A real copy of dist under `root`, runnable beside the current one, stamped as an older build
 * of the same version: what a user has running when engram is updated under it.
 */
export function olderBuild(root: string): OlderBuild {
  const current = currentBuild();
  const build = current.replace(/\+\d+$/, '+1000');
  const dir = join(root, 'older-engram');
  cpSync(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  const restamp = (path: string) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) restamp(file);
      else if (/\.c?js$/.test(name)) {
        const text = readFileSync(file, 'utf8');
        if (text.includes(current)) writeFileSync(file, text.split(current).join(build));
      }
    }
  };
  restamp(join(dir, 'dist'));
  return { build, cli: join(dir, 'dist', 'src', 'cli', 'main.js'), hooksDir: join(dir, 'dist', 'hooks') };
}
