import { redactWithCurrentRules } from './0002-redact-with-current-rules.js';

/**
 * The second pass of the redaction rules (issue 6) recognises secrets the first let through: a
 * password after a program's own flag, credential-file lines, a token as a URL's user, cookies
 * on curl's command line, 40 more token shapes, passwords named in other languages or in a
 * sentence. Logs written before it have those taken out by the next `engram migrate`.
 */
export const redactWithRulesOfRelease020 = redactWithCurrentRules('0003-redact-with-second-pass-rules');
