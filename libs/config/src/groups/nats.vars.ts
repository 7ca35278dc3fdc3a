import { z } from 'zod';
import { milliseconds, optionalText, type SettingsOf } from '../setting.builders';

// Every app but the dispatcher; libs/messaging connects with them (NatsGroupSettings).

// How an app proves itself to NATS and checks the server: at most one of
// user/password, token, nkey seed or credentials file (the server's choice),
// and TLS with the cluster's CA. Secrets (password, token, seed) come from
// Kubernetes Secrets; files are mounted from them.
function natsSecurityVars() {
  return {
    NATS_USER: optionalText('NATS user name (with `NATS_PASSWORD`), when the server authenticates users.'),
    NATS_PASSWORD: optionalText('Password of `NATS_USER`; from a Secret.'),
    NATS_TOKEN: optionalText('NATS authentication token, when the server uses one; from a Secret.'),
    NATS_NKEY_SEED: optionalText(
      'NATS nkey seed (`SU...`), when the server authenticates nkeys; from a Secret.',
    ),
    NATS_CREDS_FILE: optionalText(
      'Path of a NATS credentials file (JWT and nkey seed, decentralized auth), mounted from a Secret.',
    ),
    NATS_TLS_CA_FILE: optionalText(
      'PEM file of the CA that signed the NATS server certificate; turns TLS on and checks the server with it.',
    ),
    NATS_TLS_CERT_FILE: optionalText(
      'Client certificate (PEM) for NATS servers that verify clients (mutual TLS).',
    ),
    NATS_TLS_KEY_FILE: optionalText('Key (PEM) of `NATS_TLS_CERT_FILE`.'),
  };
}

export const natsVars = {
  NATS_URL: z
    .string()
    .min(1)
    .default('nats://127.0.0.1:4222')
    .describe("This region's NATS server(s), comma separated."),
  NATS_REQUEST_TIMEOUT_MS: milliseconds(5000, 'How long a request between services waits for its reply.'),
  NATS_RECONNECT_WAIT_MS: milliseconds(1000, 'Pause between attempts to reconnect to NATS.'),
  ...natsSecurityVars(),
  NATS_MAX_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .default(256)
    .describe(
      'Services: requests one process works on at once; more are answered 503 at once (retry) rather than queued behind the database.',
    ),
};

export type NatsGroupSettings = SettingsOf<typeof natsVars>;
