/**
 * Which words of a command are passwords, program by program: `-p` is a password to sshpass and
 * `docker login` but a port to ssh and `docker run`; `mysql -pX` takes it glued to the flag;
 * htpasswd takes it as its last word. The scans read words as redaction-command-line.ts splits
 * them. Bundled into hooks.
 */
import { classifyName } from './redaction-names.js';
import { lazy } from './redaction-rule.js';

export interface Word {
  /** Where the word starts and ends in the scanned text. */
  start: number;
  end: number;
  /** Its text with quotes removed. */
  text: string;
}
/** What to redact: the word `word`, from `from` characters into its text, as a `kind` marker. */
export interface Edit {
  word: Word;
  from: number;
  kind: string;
}
export type Scan = ((words: Word[]) => Edit[]) & {
  /** Lower-case literals a command needs to hold for the scan to find anything (`login`). */
  needs?: readonly string[];
};

/**
 * `scan`, marked with the literals it needs: git, docker, npm and kubectl lines are common, and
 * a line that cannot hold a password for them is not split into words at all.
 */
const needing = (needs: string[], scan: Scan): Scan => Object.assign((words: Word[]) => scan(words), { needs });

const PASSWORD = 'password';

/**
 * The word after any of `next` (`sshpass -p X`), or glued to one of `glued` (`mysql -pX`). A
 * flag after the flag means the first takes no value here (`security … -w -s svc`).
 */
function flags(next: string[], glued: string[] = []): Scan {
  return (words) => {
    const edits: Edit[] = [];
    words.forEach((word, i) => {
      const value = words[i + 1];
      if (next.includes(word.text) && value && !value.text.startsWith('-')) edits.push({ word: value, from: 0, kind: PASSWORD });
      const flag = glued.find((f) => word.text.length > f.length && word.text.startsWith(f));
      if (flag !== undefined) edits.push({ word, from: flag.length, kind: PASSWORD });
    });
    return edits;
  };
}

/**
 * `scan` over what follows the subcommand `word` (`docker login`, `helm registry login`,
 * `kubectl -n x create secret`), which must be among the first few words that are not flags.
 */
function after(word: string, scan: Scan, within = 3): Scan {
  return (words) => {
    const at = words.findIndex((w) => w.text === word);
    const before = words.slice(0, Math.max(at, 0)).filter((w) => !w.text.startsWith('-'));
    return at < 0 || before.length >= within ? [] : scan(words.slice(at + 1));
  };
}

/**
 * The part after `separator` of a flag's value (`-U user%pass`, `-Uuser%pass`,
 * `--user=user%pass`, `-u user,pass`), when the value starts with `prefix` (`-passin pass:X`).
 */
function inside(flagNames: string[], separator: string, prefix = ''): Scan {
  return (words) => {
    const edits: Edit[] = [];
    words.forEach((word, i) => {
      const glued = flagNames.find((f) => (f.length === 2 ? word.text.length > 2 && word.text.startsWith(f) : word.text.startsWith(`${f}=`)));
      const skip = glued === undefined ? 0 : glued.length === 2 ? 2 : glued.length + 1;
      const value = glued !== undefined ? word : flagNames.includes(word.text) ? words[i + 1] : undefined;
      if (value === undefined || !value.text.startsWith(prefix, skip)) return;
      const at = value.text.indexOf(separator, skip);
      if (at >= 0) edits.push({ word: value, from: at + separator.length, kind: PASSWORD });
    });
    return edits;
  };
}

/**
 * `config set NAME VALUE` and `config set NAME=VALUE`: the value, when the name says secret,
 * or `always` (`fly secrets set`). `path` must be the command's first words that are not flags.
 */
function configSet(path: string[], always = false): Scan {
  return (words) => {
    const plain = words.filter((w) => !w.text.startsWith('-'));
    if (!path.every((p, k) => plain[k]?.text === p)) return [];
    const rest = plain.slice(path.length);
    const edits: Edit[] = [];
    for (let i = 0; i < rest.length; i++) {
      const eq = rest[i]!.text.indexOf('=');
      if (eq > 0) {
        if (always || classifyName(rest[i]!.text.slice(0, eq)) !== 'none') edits.push({ word: rest[i]!, from: eq + 1, kind: 'assignment' });
      } else if (rest[i + 1] && (always || classifyName(rest[i]!.text) !== 'none')) {
        edits.push({ word: rest[i + 1]!, from: 0, kind: 'assignment' });
        i++;
      }
    }
    return edits;
  };
}

/** `htpasswd -b[c] file user pass`, `htpasswd -nb user pass`: the password is the last word. */
const htpasswd: Scan = (words) => {
  const options = words.filter((w) => /^-[a-zA-Z]+$/.test(w.text)).map((w) => w.text).join('');
  if (!options.includes('b')) return [];
  const positional = words.filter((w, i) => !w.text.startsWith('-') && !/^-[Cr]$/.test(words[i - 1]?.text ?? ''));
  const last = positional[options.includes('n') ? 1 : 2];
  return last ? [{ word: last, from: 0, kind: PASSWORD }] : [];
};

/** `sqlplus user/pass@db`: the first word that is not a flag. */
const sqlplus: Scan = (words) => {
  const login = words.find((w) => !w.text.startsWith('-'));
  const slash = login?.text.indexOf('/') ?? -1;
  return login && slash > 0 ? [{ word: login, from: slash + 1, kind: PASSWORD }] : [];
};

/** `net use X: \\server\share <password> /user:name`. */
const netUse: Scan = after('use', (words) => {
  // `\\server\share`, its backslashes read as a shell reads them.
  const share = words.findIndex((w) => w.text.startsWith('\\'));
  const password = share >= 0 ? words[share + 1] : undefined;
  return password && !password.text.startsWith('/') ? [{ word: password, from: 0, kind: PASSWORD }] : [];
});

/** Flags like `/p:X` and `/password:X` (xfreerdp, wmic). */
function slashFlags(names: string[]): Scan {
  return (words) =>
    words.flatMap((word) => {
      const name = names.find((n) => word.text.toLowerCase().startsWith(`/${n}:`));
      return name !== undefined ? [{ word, from: name.length + 2, kind: PASSWORD }] : [];
    });
}

const both = (...scans: Scan[]): Scan => (words) => scans.flatMap((scan) => scan(words));

/** Programs whose flags or words carry a password, by their name as typed (lower case). */
export const programs = lazy((): Record<string, Scan> => {
  const mysql = flags([], ['-p']);
  const ldap = flags(['-w'], ['-w']);
  const mongo = flags(['-p']);
  const registryLogin = needing(['login'], after('login', flags(['-p', '--password']), 2));
  const configSetScan = needing(['config'], configSet(['config', 'set']));
  const smb = inside(['-U', '--user'], '%');
  const keytool = flags(['-storepass', '-keypass', '-srcstorepass', '-deststorepass', '-srckeypass', '-destkeypass', '-new']);

  return {
    sshpass: flags(['-p'], ['-p']),
    'redis-cli': flags(['-a', '--pass']),
    'valkey-cli': flags(['-a', '--pass']),
    'keydb-cli': flags(['-a', '--pass']),
    mysql, mysqldump: mysql, mysqladmin: mysql, mysqlimport: mysql, mysqlshow: mysql, mysqlcheck: mysql, mysqlpump: mysql,
    mariadb: mysql, 'mariadb-dump': mysql, 'mariadb-admin': mysql,
    ldapsearch: ldap, ldapadd: ldap, ldapmodify: ldap, ldapdelete: ldap, ldapmodrdn: ldap, ldapwhoami: ldap, ldapcompare: ldap,
    ldappasswd: both(ldap, flags(['-s', '-a'])),
    docker: registryLogin, podman: registryLogin, nerdctl: registryLogin, buildah: registryLogin, skopeo: registryLogin,
    helm: registryLogin, oras: registryLogin, crane: registryLogin, regctl: registryLogin,
    keytool, jarsigner: keytool,
    openssl: both(inside(['-passin', '-passout', '-pass', '-password'], ':', 'pass:'), flags(['-k'])),
    htpasswd,
    smbclient: smb, rpcclient: smb, smbcacls: smb, smbget: smb, net: both(smb, netUse), smbmap: flags(['-p']),
    crackmapexec: flags(['-p']), netexec: flags(['-p']), nxc: flags(['-p']), 'evil-winrm': flags(['-p']),
    psexec: flags(['-p']), paexec: flags(['-p']), rdesktop: flags(['-p']),
    xfreerdp: slashFlags(['p', 'password']), wmic: slashFlags(['password']),
    sqlcmd: flags(['-P']), bcp: flags(['-P']), osql: flags(['-P']),
    mongo, mongosh: mongo, mongodump: mongo, mongorestore: mongo, mongoexport: mongo, mongoimport: mongo,
    mongostat: mongo, mongotop: mongo, mongofiles: mongo,
    cqlsh: flags(['-p']), 'cypher-shell': flags(['-p']), rabbitmqadmin: flags(['-p']), 'couchbase-cli': flags(['-p']),
    twine: flags(['-p']), ncftp: flags(['-p']), hydra: flags(['-p']),
    'mosquitto_pub': flags(['-P', '--pw']), 'mosquitto_sub': flags(['-P', '--pw']), 'mosquitto_rr': flags(['-P', '--pw']),
    snmpwalk: flags(['-A', '-X']), snmpget: flags(['-A', '-X']), snmpset: flags(['-A', '-X']), snmpbulkwalk: flags(['-A', '-X']),
    zip: flags(['-P']), unzip: flags(['-P']), '7z': flags([], ['-p']), '7za': flags([], ['-p']), rar: flags([], ['-p']), unrar: flags([], ['-p']),
    lftp: inside(['-u'], ','),
    security: both(after('add-generic-password', flags(['-w']), 1), after('add-internet-password', flags(['-w']), 1)),
    sqlplus,
    curl: needing(['-b', '--cookie', '--oauth2-bearer'], both(
      (words) => flags(['-b', '--cookie'])(words).filter((e) => e.word.text.includes('=')).map((e) => ({ ...e, kind: 'cookie' })),
      (words) => words.flatMap((w) => (/^-b\w+=/.test(w.text) ? [{ word: w, from: 2, kind: 'cookie' }] : [])),
      flags(['--oauth2-bearer']),
    )),
    aws: needing(['configure', 'securestring'], both(
      configSet(['configure', 'set']),
      (words) => (words.some((w) => w.text === 'SecureString') ? flags(['--value'])(words) : []),
    )),
    az: needing(['secret', 'login'], both(
      (words) => (words.some((w) => w.text === 'secret') ? flags(['--value'])(words) : []),
      after('login', flags(['-p', '--password']), 1),
    )),
    npm: configSetScan, pnpm: configSetScan, yarn: configSetScan, bun: configSetScan,
    git: needing(['config'], configSet(['config'])),
    gh: needing(['secret'], after('secret', after('set', flags(['--body', '-b'], ['-b']), 1), 1)),
    fly: needing(['secrets'], configSet(['secrets', 'set'], true)), flyctl: needing(['secrets'], configSet(['secrets', 'set'], true)),
    doppler: needing(['secrets'], configSet(['secrets', 'set'], true)),
    // `vault kv put secret/db password=x`: every value is the secret being stored.
    vault: needing(['put', 'patch', 'write'], (words) => {
      const plain = words.filter((w) => !w.text.includes('/'));
      return [...configSet(['kv', 'put'], true)(plain), ...configSet(['kv', 'patch'], true)(plain), ...configSet(['write'], true)(plain)];
    }),
    kubectl: needing(['secret'], after('secret', inside(['--from-literal'], '='))),
    oc: needing(['secret'], after('secret', inside(['--from-literal'], '='))),
    'convertto-securestring': (words) => {
      const value = words.find((w, i) => !w.text.startsWith('-') || words[i - 1]?.text.toLowerCase() === '-string');
      return value && !value.text.startsWith('-') ? [{ word: value, from: 0, kind: PASSWORD }] : [];
    },
  };
});
