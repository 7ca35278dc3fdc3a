import { natsConnectionOptions, NatsSettingsError } from './nats-options';

describe('natsConnectionOptions', () => {
  const base = { NATS_URL: 'nats://a:4222,nats://b:4222', NATS_RECONNECT_WAIT_MS: 1000 };

  it('connects to every server, without credentials or TLS by default', () => {
    expect(natsConnectionOptions(base)).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222'],
      user: undefined,
      pass: undefined,
      token: undefined,
      authenticator: undefined,
      tls: undefined,
    });
  });

  it('passes user and password, or a token', () => {
    expect(natsConnectionOptions({ ...base, NATS_USER: 'u', NATS_PASSWORD: 'p' })).toMatchObject({
      user: 'u',
      pass: 'p',
    });
    expect(natsConnectionOptions({ ...base, NATS_TOKEN: 't' })).toMatchObject({ token: 't' });
  });

  it('authenticates with an nkey seed or a credentials file', () => {
    const seed = 'SUAIBDPBAUTWCWBKIO6XHQNINK5FWJW4OHLXC3HQ2KFE4PEJUA44CNHTC4';
    expect(natsConnectionOptions({ ...base, NATS_NKEY_SEED: seed }).authenticator).toEqual(
      expect.any(Function),
    );
    expect(natsConnectionOptions({ ...base, NATS_CREDS_FILE: '/run/nats/app.creds' }).authenticator).toEqual(
      expect.any(Function),
    );
  });

  it('turns TLS on with a CA file, and a client certificate with its key', () => {
    expect(
      natsConnectionOptions({
        ...base,
        NATS_TLS_CA_FILE: '/ca.pem',
        NATS_TLS_CERT_FILE: '/cert.pem',
        NATS_TLS_KEY_FILE: '/key.pem',
      }).tls,
    ).toEqual({ caFile: '/ca.pem', certFile: '/cert.pem', keyFile: '/key.pem' });
  });

  it.each([
    [{ NATS_USER: 'u', NATS_PASSWORD: 'p', NATS_TOKEN: 't' }, /not NATS_USER and NATS_TOKEN/],
    [{ NATS_TOKEN: 't', NATS_CREDS_FILE: '/x' }, /not NATS_TOKEN and NATS_CREDS_FILE/],
    [{ NATS_USER: 'u' }, /NATS_USER and NATS_PASSWORD go together/],
    [{ NATS_TLS_CERT_FILE: '/cert.pem' }, /NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together/],
  ])('refuses a confusing combination %j', (settings, message) => {
    expect(() => natsConnectionOptions({ ...base, ...settings })).toThrow(NatsSettingsError);
    expect(() => natsConnectionOptions({ ...base, ...settings })).toThrow(message);
  });
});
