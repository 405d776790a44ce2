import { readFileSync } from 'node:fs';
import { credsAuthenticator, nkeyAuthenticator, tokenAuthenticator, usernamePasswordAuthenticator, type Authenticator } from '@nats-io/transport-node';
import { z } from 'zod';
import { EngramError } from '../errors.js';

const secretsShape = z.union([
  z.object({ user: z.string().min(1), password: z.string() }).strict(),
  z.object({ token: z.string().min(1) }).strict(),
]);

/**
 * The authenticator for the credentials in `file`: a NATS `.creds` file (JWT and seed), an nkey
 * seed alone, or JSON `{"user","password"}` / `{"token"}`. Read when connecting; the content
 * lives only in the authenticator, and no error quotes it.
 */
export function syncAuthenticator(file: string): Authenticator {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EngramError('SETTINGS_INVALID', `the sync credentials file ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (text.includes('-----BEGIN NATS USER JWT-----')) return credsAuthenticator(new TextEncoder().encode(text));
  const trimmed = text.trim();
  if (/^SU[A-Z2-7]{50,}$/.test(trimmed)) return nkeyAuthenticator(new TextEncoder().encode(trimmed));
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    json = undefined;
  }
  const parsed = secretsShape.safeParse(json);
  if (!parsed.success) {
    throw new EngramError('SETTINGS_INVALID', `the sync credentials file ${file} is none of: a NATS .creds file, an nkey seed, JSON {"user","password"} or {"token"}`);
  }
  const secrets = parsed.data;
  return 'token' in secrets ? tokenAuthenticator(secrets.token) : usernamePasswordAuthenticator(secrets.user, secrets.password);
}
