/**
 * Secrets named in words rather than code: "password" in other languages and scripts
 * (`Passwort:`, `contraseña=`, `пароль:`, `密码：`), and English sentences that give one away
 * ("my password is …", "the token for staging is …"). Bundled into hooks.
 */
import { judgeValue } from './redaction-judge.js';
import { MARKER_SOURCE, marker } from './redaction-marker.js';
import { FOREIGN_SECRET_NAME } from './redaction-names.js';
import { anyOf, isMarker, lazy, QUOTED, R, type Rule } from './redaction-rule.js';
import { carriesNoSecret, isLetters, isProseWord, splitQuotes, wordFollows } from './redaction-values.js';

// Scripts that write words apart (Latin, Greek, Cyrillic): there a name must start a word.
// Chinese, Japanese, Korean, Thai write them together: there it may start anywhere.
const WORD_CHAR = R`A-Za-z0-9\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF`;

const NOUN = R`(?:password|passphrase|passcode|passwd|pw|pwd|pin|api[ _-]?key|access[ _-]?key|secret[ _-]?key|token|secret|credentials?)`;
// Longest first: `is now` must not stop at `is` and take `now` for the value.
const VERB = R`(?:is[ \t]+(?:now|still)|(?:is[ \t]+)?set[ \t]+to|has[ \t]+been[ \t]+(?:set|changed|reset)[ \t]+to|(?:will|should|would)[ \t]+be|changed[ \t]+to|is|was|are)`;
// Adjectives and participles: "the token is expired", "the password is configurable".
const DESCRIBES = /(?:ed|ing|ly|able|ible|ive|ous|ful|less|ent|ant|al|ic|ary|ory|ion|ness|ment)$/;

const PROSE_NOUN = anyOf('pass', 'pw', 'pin', 'key', 'token', 'secret', 'credential');
const PROSE_VERB = anyOf('is', 'was', 'are', 'set', 'will', 'should', 'would', 'has', 'changed');
// The foreign names written in ASCII, up to any pattern syntax in them (`parola d['’]ordine`):
// one scan for all of them, built on first use.
const foreignAscii = lazy(
  () =>
    new RegExp(
      FOREIGN_SECRET_NAME.split('|')
        .map((name) => name.replace(/\[.*$/, ''))
        .filter((name) => /^[\x00-\x7f]+$/.test(name))
        .join('|'),
    ),
);
const FOREIGN_ASCII = (lower: string): boolean => foreignAscii().test(lower);

export const naturalLanguageRules: Rule[] = [
  {
    // "log in as root with password X", "using the passphrase X": a password-like word only,
    // since "with password authentication" is the common case.
    name: 'prose-with',
    pattern: new RegExp(
      R`(?<![\w-])(?<lead>(?:with|using|use|try|via)[ \t]+(?:[\w-]{1,20}[ \t]+){0,2}?${NOUN}[ \t]+)(?<value>${MARKER_SOURCE}|"[^"\r\n]{1,200}"|'[^'\r\n]{1,200}'|\S+)`,
      'gi',
    ),
    replace(g, match) {
      const raw = g.value!;
      const value = raw.replace(/[.,;:?)\]]+$/, '');
      if (isMarker(raw) || isLetters(value) || isProseWord(value)) return match;
      const q = splitQuotes(value);
      if (carriesNoSecret(q === null ? value : q.content)) return match;
      return g.lead! + (q === null ? marker('secret') : q.open + marker('secret') + q.close) + raw.slice(value.length);
    },
    needs: anyOf('with', 'us', 'try', 'via'),
  },
  {
    // "creds: admin / hunter2", "login admin / hunter2": a user, a spaced slash, a password.
    name: 'user-slash-password',
    pattern: new RegExp(
      R`(?<![\w-])(?<lead>(?:creds|credentials|login|logins|account)[ \t]*[:=]?[ \t]*[\w.@+-]{1,64}[ \t]+\/[ \t]+)(?<value>${MARKER_SOURCE}|\S+)`,
      'gi',
    ),
    replace(g, match) {
      const value = g.value!.replace(/[.,;:?)\]]+$/, '');
      if (isMarker(g.value!) || carriesNoSecret(value) || isProseWord(value)) return match;
      return g.lead! + marker('password') + g.value!.slice(value.length);
    },
    needs: anyOf(' /', '\t/'),
  },
  {
    name: 'foreign-name',
    pattern: new RegExp(
      R`(?<![${WORD_CHAR}])(?<lead>(?<name>${FOREIGN_SECRET_NAME})["']?[ \t]*(?:\([^()\r\n]{0,40}\)[ \t]*)?(?<sep>:=|[:=：])[ \t]*)` +
        R`(?<value>${MARKER_SOURCE}|${QUOTED}|[^\s"'${'`'},;，；。、]+)`,
      'gi',
    ),
    replace(g, match, offset, input) {
      const value = judgeValue(
        { value: g.value!, input, end: offset + match.length, cls: 'strong', codeLike: g.sep !== '=', tight: false },
        'assignment',
      );
      return g.lead! + value;
    },
    needs: (lower) => /[^\x00-\x7f]/.test(lower) || FOREIGN_ASCII(lower),
  },
  {
    name: 'prose',
    pattern: new RegExp(
      R`(?<![\w-])(?<lead>(?<noun>${NOUN})(?:[ \t]+(?:for|of|on|to|at)[ \t]+\S{1,64}(?:[ \t]+\S{1,64}){0,2}?)?[ \t]+${VERB}[ \t]+)` +
        R`(?<value>${MARKER_SOURCE}|"[^"\r\n]{1,200}"|'[^'\r\n]{1,200}'|${'`'}[^${'`'}\r\n]{1,200}${'`'}|\S+)`,
      'gi',
    ),
    replace(g, match, offset, input) {
      const raw = g.value!;
      if (isMarker(raw)) return match;
      const q = splitQuotes(raw);
      if (q !== null && q.close !== '') return carriesNoSecret(q.content) ? match : g.lead! + q.open + marker('secret') + q.close;
      // Sentence punctuation after the value is not part of it.
      const value = raw.replace(/[.,;:?!)\]]+$/, '');
      const trail = raw.slice(value.length);
      if (value === '' || isProseWord(value)) return match;
      const pin = /^(?:pin|passcode)$/i.test(g.noun!) && /^\d{4,8}$/.test(value);
      if (carriesNoSecret(value) && !pin) return match;
      // A lone word that a sentence goes on from ("the token is refreshed hourly") describes.
      if (isLetters(value)) {
        const next = input.slice(offset + match.length, offset + match.length + 16);
        if (DESCRIBES.test(value.toLowerCase()) || (trail === '' && wordFollows(next))) return match;
      }
      return g.lead! + marker('secret') + trail;
    },
    needs: (lower) => PROSE_NOUN(lower) && PROSE_VERB(lower),
  },
];
