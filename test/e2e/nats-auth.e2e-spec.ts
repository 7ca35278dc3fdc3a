import { connect } from '@nats-io/transport-node';
import { readinessStatus } from '@formline/stack';
import { callApi, useTestRegions } from '@formline/testing';

// NATS inside the cluster asks for credentials: the apps bring them from their
// config (NATS_USER, NATS_PASSWORD) and work as usual; an app without them, or
// with a wrong password, never gets on the bus.
describe('NATS with user and password', () => {
  const credentials = { NATS_USER: 'formline', NATS_PASSWORD: 'a-long-nats-password' };
  const { regions, nats, launchApp, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global'],
    privateNats: { args: ['--user', credentials.NATS_USER, '--pass', credentials.NATS_PASSWORD] },
    extraEnv: credentials,
    accounts: { account: 'us' },
  });
  const { account } = accounts;

  it('refuses a client without credentials (the server really asks for them)', async () => {
    await expect(connect({ servers: nats.url, reconnect: false })).rejects.toThrow(/authorization/i);
  });

  it('carries requests between apps that bring their credentials', async () => {
    const form = await callApi(`${regions.baseUrl('us')}/forms/${account.formId}`, { token: account.token });
    expect(form.status).toBe(200);
    expect(form.body.id).toBe(account.formId);
  });

  it.each([
    ['without credentials', {}],
    ['with a wrong password', { ...credentials, NATS_PASSWORD: 'wrong' }],
  ])('keeps an app %s off the bus: never ready', async (_, given) => {
    const outsider = await launchApp('us', 'global', { env: given, without: Object.keys(credentials) });
    try {
      await expect(outsider.waitReady(4000)).rejects.toThrow();
      expect(await readinessStatus(outsider.options.opsPort)).not.toBe(200);
    } finally {
      await outsider.stop();
    }
  });
});
