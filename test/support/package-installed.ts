import { createRequire } from 'node:module';

/**
 * Whether an optional dependency is installed here. A test that needs one skips, and says so,
 * where its install failed (`npm ci` drops an optional package whose install script fails);
 * the project's .npmrc makes it install on this machine and in CI.
 */
export function packageInstalled(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}
