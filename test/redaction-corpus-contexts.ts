/**
 * Secrets that only their context gives away: a password after a program's own flag, a line of
 * a credential file, a login pair in code, a sentence, a name in another language. Passwords
 * come from a seeded generator, so each is fake and each case has its own.
 */
import type { SecretCase, SecretWhere } from './redaction-corpus.js';
import { ALNUM, BASE64, HEX, Seeded, URL_SAFE } from './redaction-random.js';

type Context = [SecretWhere, (secret: string, n: number) => string];

interface ContextShape {
  shape: string;
  /** The secret this shape hides; a person's password unless said otherwise. */
  make?: (r: Seeded) => string;
  contexts: Context[];
}

const SHAPES: ContextShape[] = [
  {
    shape: 'sshpass -p',
    contexts: [
      ['command', (p, n) => `sshpass -p ${p} ssh deploy@web-${n}.acme.dev 'sudo systemctl restart api'`],
      ['command', (p, n) => `sshpass -p '${p}' scp dist.tgz ops@10.0.3.${n}:/srv/releases/`],
      ['prompt', (p) => `CI runs \`sshpass -p ${p} rsync -az ./build/ ops@staging:/srv/app\` — is there a safer way?`],
    ],
  },
  {
    shape: 'redis-cli -a',
    contexts: [
      ['command', (p) => `redis-cli -h cache.acme.dev -p 6380 -a ${p} --no-auth-warning INFO replication`],
      ['command', (p) => `redis-cli -a "${p}" -n 2 KEYS 'session:*' | head`],
      ['error', (p) => `$ redis-cli -a ${p} ping\n(error) WRONGPASS invalid username-password pair or user is disabled.`],
    ],
  },
  {
    shape: 'mysql -pPASSWORD',
    contexts: [
      ['command', (p) => `mysql -h db.acme.dev -P 3306 -u app -p${p} orders -e 'SHOW TABLES'`],
      ['command', (p) => `mysqldump -u backup -p'${p}' --single-transaction shop > shop.sql`],
      ['prompt', (p) => `why does \`mariadb -uroot -p${p} -e "select 1"\` say access denied for user root@localhost?`],
    ],
  },
  {
    shape: 'ldapsearch -w',
    contexts: [
      ['command', (p) => `ldapsearch -x -H ldaps://ldap.acme.dev -D "cn=admin,dc=acme,dc=dev" -w ${p} -b "ou=people,dc=acme,dc=dev" uid=alice`],
      ['command', (p) => `ldapmodify -x -D cn=admin,dc=acme,dc=dev -w '${p}' -f change.ldif`],
      ['error', (p) => `ldap_bind: Invalid credentials (49)\n  command: ldapwhoami -x -D uid=svc,ou=apps,dc=acme -w ${p}`],
    ],
  },
  {
    shape: 'docker login -p',
    contexts: [
      ['command', (p) => `docker login registry.acme.dev -u ci-bot -p ${p}`],
      ['command', (p) => `podman login -u deploy -p '${p}' quay.io`],
      ['prompt', (p) => `the pipeline does docker login -u acme -p ${p} ghcr.io and then fails on push, why?`],
    ],
  },
  {
    shape: 'keytool -storepass',
    contexts: [
      ['command', (p) => `keytool -importkeystore -srckeystore app.p12 -srcstoretype PKCS12 -srcstorepass ${p} -destkeystore app.jks -deststorepass ${p}`],
      ['command', (p) => `keytool -list -v -keystore release.jks -storepass '${p}' -alias upload`],
      ['command', (p) => `jarsigner -keystore release.jks -storepass ${p} -keypass ${p} app-release.apk upload`],
    ],
  },
  {
    shape: 'sqlcmd -P',
    contexts: [
      ['command', (p) => `sqlcmd -S tcp:sql.acme.dev,1433 -U sa -P ${p} -Q "SELECT @@VERSION"`],
      ['command', (p) => `bcp dbo.orders out orders.dat -S sql01 -U loader -P '${p}' -c`],
    ],
  },
  {
    shape: 'mongosh -p',
    contexts: [
      ['command', (p) => `mongosh --host mongo.acme.dev -u admin -p ${p} --authenticationDatabase admin`],
      ['command', (p) => `mongodump -u backup -p '${p}' --db shop --out /backups/shop`],
    ],
  },
  {
    shape: 'archive password flag',
    contexts: [
      ['command', (p) => `zip -r -P ${p} secrets.zip ./vault-export`],
      ['command', (p) => `7z a -p${p} -mhe=on backup.7z ./db-dumps`],
      ['command', (p) => `unzip -P '${p}' customer-data.zip -d /tmp/import`],
    ],
  },
  {
    shape: 'openssl -pass pass:',
    contexts: [
      ['command', (p) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:${p}`],
      ['command', (p) => `openssl enc -d -aes-256-cbc -pbkdf2 -in backup.enc -out backup.tar -pass pass:${p}`],
    ],
  },
  {
    shape: 'aws configure set',
    make: (r) => r.chars(`${ALNUM}/+`, 40),
    contexts: [
      ['command', (s) => `aws configure set aws_secret_access_key ${s} --profile staging`],
      ['command', (s) => `aws configure set default.aws_secret_access_key ${s}`],
      ['prompt', (s) => `I ran aws configure set aws_session_token ${s} and aws sts get-caller-identity still fails`],
    ],
  },
  {
    shape: '.netrc entry',
    contexts: [
      ['tool-input', (p, n) => `machine api.acme.dev login deploy${n} password ${p}`],
      ['prompt', (p) => `my ~/.netrc is:\n\nmachine github.com\n  login alice\n  password ${p}\n\nbut git still asks for a password`],
      ['command', (p) => `printf 'machine nexus.acme.dev login ci password ${p}\\n' >> ~/.netrc`],
    ],
  },
  {
    shape: '.pgpass line',
    contexts: [
      ['tool-input', (p) => `db.acme.dev:5432:orders:app:${p}`],
      ['command', (p) => `echo "localhost:5432:*:postgres:${p}" >> ~/.pgpass && chmod 600 ~/.pgpass`],
      ['prompt', (p) => `psql ignores my pgpass line 10.0.4.12:6432:billing:billing_rw:${p} — is the format wrong?`],
    ],
  },
  {
    shape: 'htpasswd -b',
    contexts: [
      ['command', (p) => `htpasswd -b /etc/nginx/.htpasswd admin ${p}`],
      ['command', (p) => `htpasswd -nbB grafana '${p}' >> auth/htpasswd`],
    ],
  },
  {
    shape: 'chpasswd input',
    contexts: [
      ['command', (p) => `echo 'deploy:${p}' | sudo chpasswd`],
      ['command', (p) => `echo "ubuntu:${p}" | chpasswd`],
    ],
  },
  {
    shape: 'password piped to stdin',
    contexts: [
      ['command', (p) => `echo "${p}" | sudo -S apt-get install -y nginx`],
      ['command', (p) => `echo ${p} | docker login registry.acme.dev -u ci --password-stdin`],
      ['command', (p) => `echo '${p}' | passwd --stdin deploy`],
    ],
  },
  {
    shape: 'smbclient -U user%pass',
    contexts: [
      ['command', (p) => `smbclient //fs01.corp.acme.dev/finance -U alice%${p} -c 'ls'`],
      ['command', (p) => `smbclient -L //10.0.8.20 -U 'CORP\\svc_backup%${p}'`],
    ],
  },
  {
    shape: 'user:password@host without a scheme',
    contexts: [
      ['prompt', (p) => `the tunnel works with admin:${p}@10.0.0.5 but not through the bastion`],
      ['command', (p) => `impacket-psexec corp.local/administrator:${p}@dc01.corp.local`],
      ['tool-input', (p) => `{"target": "svc_sync:${p}@sftp.partner.example.com", "path": "/outbox"}`],
    ],
  },
  {
    shape: 'token as a URL user',
    make: (r) => r.chars(ALNUM, 40),
    contexts: [
      ['command', (t) => `git clone https://${t}@git.acme.dev/platform/infra.git`],
      ['url', (t) => `https://${t}@bitbucket.org/acme/mobile-app.git`],
    ],
  },
  {
    shape: 'curl cookie flag',
    make: (r) => r.chars(URL_SAFE, 32),
    contexts: [
      ['command', (c) => `curl -s -b "sessionid=${c}; theme=dark" https://app.acme.dev/api/me`],
      ['command', (c) => `curl --cookie 'auth_session=${c}' https://admin.acme.dev/export.csv -o export.csv`],
    ],
  },
  {
    shape: 'SAS signature, percent-encoded',
    make: (r) => `${r.chars(ALNUM, 20)}%2B${r.chars(ALNUM, 12)}%2F${r.chars(ALNUM, 8)}%3D`,
    contexts: [
      ['url', (s) => `https://acmelogs.blob.core.windows.net/exports/2024.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&sig=${s}`],
      ['command', (s) => `azcopy copy ./dist "https://acmecdn.blob.core.windows.net/\\$web?sv=2021-08-06&sp=racwl&sig=${s}" --recursive`],
    ],
  },
  {
    shape: 'PowerShell ConvertTo-SecureString',
    contexts: [
      ['command', (p) => `$pw = ConvertTo-SecureString "${p}" -AsPlainText -Force; New-LocalUser -Name svc -Password $pw`],
      ['prompt', (p) => `is ConvertTo-SecureString -String '${p}' -AsPlainText -Force OK in a deploy script?`],
    ],
  },
  {
    shape: 'password in another language',
    contexts: [
      ['prompt', (p) => `Zugang zum Testserver:\nBenutzer: admin\nPasswort: ${p}`],
      ['prompt', (p) => `la contraseña=${p} no funciona en producción`],
      ['prompt', (p) => `логин: admin\nпароль: ${p}`],
      ['prompt', (p) => `数据库账号 root，密码：${p}`],
      ['prompt', (p) => `identifiant : admin\nmot de passe : ${p}`],
      ['prompt', (p) => `usuário: suporte\nsenha: ${p}`],
      ['prompt', (p) => `parola d'ordine: ${p} (solo per staging)`],
      ['prompt', (p) => `gebruiker: beheer, wachtwoord: ${p}`],
      ['prompt', (p) => `login: admin, hasło: ${p}`],
      ['prompt', (p) => `ユーザー名: admin パスワード: ${p}`],
      ['prompt', (p) => `아이디: admin 비밀번호: ${p}`],
    ],
  },
  {
    shape: 'password in a sentence',
    contexts: [
      ['prompt', (p) => `my password is ${p} but the login form keeps rejecting it`],
      ['prompt', (p) => `The staging admin password is ${p}, please update the seed script.`],
      ['prompt', (p) => `fyi the database password for reporting is now ${p}`],
      ['prompt', (p) => `pw: ${p} (rotate after the demo)`],
    ],
  },
  {
    shape: 'login pair in code',
    contexts: [
      ['prompt', (p) => `r = requests.get(url, auth=("admin", "${p}"), timeout=10)`],
      ['prompt', (p) => `server = smtplib.SMTP_SSL("smtp.acme.dev", 465)\nserver.login("alerts@acme.dev", "${p}")`],
      ['prompt', (p) => `es = Elasticsearch("https://es.acme.dev:9200", basic_auth=("elastic", "${p}"))`],
      ['prompt', (p) => `var creds = new NetworkCredential("svc_report", "${p}");`],
    ],
  },
  {
    shape: 'multi-word YAML passphrase',
    make: (r) => Array.from({ length: 4 }, () => r.pick(['correct', 'horse', 'battery', 'staple', 'orbit', 'lantern', 'meadow', 'pickle', 'quantum', 'saddle', 'tundra', 'velvet', 'walnut', 'yonder'])).join(' '),
    contexts: [
      ['prompt', (p) => `smtp:\n  host: smtp.acme.dev\n  password: ${p}\n  port: 587`],
      ['tool-input', (p) => `vault:\n  passphrase: ${p}\n  cipher: aes-256-gcm`],
    ],
  },
  {
    shape: 'secret set on a command line',
    contexts: [
      ['command', (p) => `gh secret set DEPLOY_PASSWORD --body "${p}" --repo acme/api`],
      ['command', (p) => `kubectl -n prod create secret generic api-db --from-literal=user=api --from-literal=pw=${p}`],
      ['command', (p) => `vault kv put secret/staging/db user=app value=${p}`],
      ['command', (p) => `fly secrets set SMTP_LOGIN=${p} -a acme-mailer`],
      ['command', (s) => `npm config set //npm.acme.dev/:_authToken ${s}`],
    ],
  },
  {
    shape: 'Windows password flag',
    contexts: [
      ['command', (p) => `xfreerdp /v:10.0.5.20 /u:Administrator /p:${p} /cert:ignore`],
      ['command', (p) => `psexec \\\\app01 -u CORP\\deploy -p ${p} cmd /c ipconfig`],
      ['command', (p) => `net use Z: \\\\fs01\\share ${p} /user:CORP\\alice`],
      ['command', (p) => `New-LocalUser -Name "svc_backup" -Password ${p}`],
    ],
  },
  {
    shape: 'sqlplus user/password',
    contexts: [
      ['command', (p) => `sqlplus scott/${p}@//db.acme.dev:1521/ORCLPDB1 @migrate.sql`],
    ],
  },
  {
    shape: 'generated value under an innocuous name',
    make: (r) => r.chars(ALNUM, 28),
    contexts: [
      ['command', (s) => `export ACME_BRIDGE=${s} && ./bin/sync`],
      ['tool-input', (s) => `PARTNER_CONNECT=${s}\nPARTNER_REGION=eu-west-1`],
    ],
  },
  {
    shape: 'base64 blob under a key name',
    make: (r) => `${r.chars(BASE64, 86)}==`,
    contexts: [
      ['tool-input', (s) => `{"encryptionKey": "${s}", "algorithm": "AES-GCM"}`],
      ['prompt', (s) => `signing_key: ${s}`],
    ],
  },
  {
    shape: 'hex secret under a key name',
    make: (r) => r.chars(HEX, 64),
    contexts: [
      ['command', (s) => `SECRET_KEY_BASE=${s} bin/rails server -e production`],
      ['prompt', (s) => `webhookSecret = "${s}"`],
    ],
  },
];

// Written after the rules, without running them first: how the redactor does on text it was
// not shaped around.
const LATER: ContextShape[] = [
  {
    shape: 'secret-named assignment',
    contexts: [
      ['command', (p) => `PGPASSWORD='${p}' pg_dump -h db.acme.dev -U app orders > orders.sql`],
      ['command', (p) => `mysql --user=root --password="${p}" -e "SHOW DATABASES"`],
      ['command', (p) => `curl -X POST https://api.acme.dev/login -d '{"username":"bob","password":"${p}"}'`],
      ['tool-input', (p) => `spring.datasource.password=${p}`],
      ['tool-input', (p) => `passwd: ${p}`],
      ['command', (p) => `ansible-playbook site.yml -e "ansible_become_password=${p}"`],
      ['command', (p) => `wget --user=bob --password=${p} https://files.acme.dev/report.pdf`],
      ['tool-input', (p) => `resource "aws_db_instance" "main" {\n  username = "admin"\n  password = "${p}"\n}`],
      ['prompt', (p) => `here are the credentials — username: svc_ci, password: ${p}`],
      ['command', (p) => `kubectl create secret docker-registry regcred --docker-server=ghcr.io --docker-username=bot --docker-password=${p}`],
      ['command', (p) => `gpg --batch --pinentry-mode loopback --passphrase ${p} -d backup.tar.gpg`],
    ],
  },
  {
    shape: 'password in a sentence',
    contexts: [
      ['prompt', (p) => `SSH into 10.0.0.5 as root with password ${p} and check the disk`],
      ['prompt', (p) => `use these creds: admin / ${p}`],
      ['prompt', (p) => `the wifi password: ${p}`],
    ],
  },
  {
    shape: 'Gradle signing config',
    contexts: [
      ['prompt', (p) => `signingConfigs {\n    release {\n        storeFile file("release.jks")\n        storePassword "${p}"\n        keyAlias "upload"\n        keyPassword "${p}"\n    }\n}`],
    ],
  },
  {
    shape: 'cloud CLI login secret',
    contexts: [
      ['command', (p) => `az login --service-principal -u 3f2a9c1e-5b7d-4e8f-a0b1-c2d3e4f5a6b7 -p ${p} --tenant acme.onmicrosoft.com`],
      ['command', (p) => `sudo -S <<< "${p}" apt-get update`],
      ['command', (p) => `openssl genrsa -aes256 -passout pass:${p} -out key.pem 2048`],
    ],
  },
  {
    shape: 'secret-named JSON field',
    make: (r) => r.chars(`${ALNUM}/+`, 40),
    contexts: [
      ['tool-input', (s) => `{"AccessKeyId": "AKIAIOSFODNN7EXAMPLE", "SecretAccessKey": "${s}", "Expiration": "2025-01-01T00:00:00Z"}`],
      ['tool-input', (s) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: api\ndata:\n  api-token: ${s}`],
    ],
  },
];

export function contextSecretCases(seed: number): SecretCase[] {
  const r = new Seeded(seed);
  return [...SHAPES, ...LATER].flatMap((s) =>
    s.contexts.map(([where, context], i) => {
      const secret = s.make ? s.make(r) : r.password();
      const later = LATER.includes(s) ? ' (written after the rules)' : '';
      return { name: `${s.shape} #${i + 1}${later}`, shape: s.shape, where, text: context(secret, 10 + i), secrets: [secret] };
    }),
  );
}
