// Registered with `node --import`: makes the packages named in ENGRAM_TEST_HIDDEN_PACKAGES
// unresolvable, as on a machine where an optional dependency failed to install.
import { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent(`
  const hidden = new Set((process.env.ENGRAM_TEST_HIDDEN_PACKAGES ?? '').split(',').filter(Boolean));
  export async function resolve(specifier, context, next) {
    if (hidden.has(specifier)) {
      const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
      error.code = 'ERR_MODULE_NOT_FOUND';
      throw error;
    }
    return next(specifier, context);
  }
`));
