import { BUILD_ID } from './build-id.js';

/** This engram's release (package.json's version), as stamped into BUILD_ID by the build. */
export const VERSION: string = BUILD_ID.replace(/\+.*$/, '');

/** `engram --version`, doctor's first line: the release, then the build it came from. */
export function describeVersion(): string {
  return `engram ${VERSION} (build ${BUILD_ID})`;
}
