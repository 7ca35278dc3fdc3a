import { readFileSync } from 'node:fs';
import {
  type Authenticator,
  type ConnectionOptions,
  credsAuthenticator,
  nkeyAuthenticator,
  type TlsOptions,
} from '@nats-io/transport-node';
import type { NatsGroupSettings } from '@formline/config';

// How every connection of ours finds and proves itself to NATS: the servers,
// one way of authenticating (the server decides which), and TLS. The names and
// types are the group's in libs/config (natsVars), so they cannot drift apart.
export type NatsSecuritySettings = Pick<
  NatsGroupSettings,
  | 'NATS_USER'
  | 'NATS_PASSWORD'
  | 'NATS_TOKEN'
  | 'NATS_NKEY_SEED'
  | 'NATS_CREDS_FILE'
  | 'NATS_TLS_CA_FILE'
  | 'NATS_TLS_CERT_FILE'
  | 'NATS_TLS_KEY_FILE'
>;

export type NatsSettings = NatsSecuritySettings &
  Pick<NatsGroupSettings, 'NATS_URL' | 'NATS_RECONNECT_WAIT_MS'> & {
    /** Services only: requests in work at once before the next ones are answered 503. */
    NATS_MAX_IN_FLIGHT?: NatsGroupSettings['NATS_MAX_IN_FLIGHT'];
  };

export class NatsSettingsError extends Error {}

export function natsConnectionOptions(
  settings: NatsSettings,
): Pick<ConnectionOptions, 'servers' | 'user' | 'pass' | 'token' | 'authenticator' | 'tls'> {
  const ways = [
    settings.NATS_USER !== undefined || settings.NATS_PASSWORD !== undefined ? 'NATS_USER' : undefined,
    settings.NATS_TOKEN !== undefined ? 'NATS_TOKEN' : undefined,
    settings.NATS_NKEY_SEED !== undefined ? 'NATS_NKEY_SEED' : undefined,
    settings.NATS_CREDS_FILE !== undefined ? 'NATS_CREDS_FILE' : undefined,
  ].filter((way) => way !== undefined);
  if (ways.length > 1)
    throw new NatsSettingsError(`Choose one way to authenticate to NATS, not ${ways.join(' and ')}.`);
  if ((settings.NATS_USER === undefined) !== (settings.NATS_PASSWORD === undefined))
    throw new NatsSettingsError('NATS_USER and NATS_PASSWORD go together.');
  if ((settings.NATS_TLS_CERT_FILE === undefined) !== (settings.NATS_TLS_KEY_FILE === undefined))
    throw new NatsSettingsError('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together.');
  return {
    servers: settings.NATS_URL.split(','),
    user: settings.NATS_USER,
    pass: settings.NATS_PASSWORD,
    token: settings.NATS_TOKEN,
    authenticator: authenticatorOf(settings),
    tls: tlsOf(settings),
  };
}

function authenticatorOf(settings: NatsSettings): Authenticator | undefined {
  const encode = (text: string) => new TextEncoder().encode(text);
  if (settings.NATS_NKEY_SEED !== undefined) return nkeyAuthenticator(encode(settings.NATS_NKEY_SEED));
  // Read at every (re)connection, so a rotated credentials file is picked up.
  const file = settings.NATS_CREDS_FILE;
  if (file !== undefined) return credsAuthenticator(() => readFileSync(file));
  return undefined;
}

// With a CA file (or a client certificate), only TLS connections are made;
// `tls://` servers without a CA use the system's trusted CAs.
function tlsOf(settings: NatsSettings): TlsOptions | undefined {
  if (settings.NATS_TLS_CA_FILE === undefined && settings.NATS_TLS_CERT_FILE === undefined) return undefined;
  return {
    caFile: settings.NATS_TLS_CA_FILE,
    certFile: settings.NATS_TLS_CERT_FILE,
    keyFile: settings.NATS_TLS_KEY_FILE,
  };
}
