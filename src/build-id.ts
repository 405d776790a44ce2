/**
 * Which build of engram this is: `<package version>+<build time, ms since the epoch>`. The
 * version orders releases; the build time tells apart and orders builds of one version (each
 * `npm run build` is a new one), which is what a hook or CLI needs to see that the running
 * worker is older than itself. scripts/build-hooks.mjs stamps one value, at build time, into the
 * tsc output (dist/src/build-id.js) and into every hook bundle, so a hook and the worker it
 * starts always agree. Run from source (tests), it is this placeholder, older than any build.
 */
export const BUILD_ID: string = '0.0.0+0';
