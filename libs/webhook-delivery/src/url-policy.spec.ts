import { UrlRefused, WebhookUrlPolicy } from './url-policy';

describe('WebhookUrlPolicy', () => {
  const strict = new WebhookUrlPolicy([]);

  it.each([
    'http://127.0.0.1/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost/',
    'http://metadata.google.internal/',
    'ftp://example.com/',
    'https://user:pass@example.com/',
  ])('refuses %s', async (url) => {
    await expect(strict.check(url, { acceptUnresolved: true })).rejects.toBeInstanceOf(UrlRefused);
  });

  it('accepts public addresses, and names that do not resolve yet only when asked to', async () => {
    await expect(strict.check('https://93.184.216.34/hook')).resolves.toMatchObject({
      addresses: ['93.184.216.34'],
    });
    await expect(
      strict.check('https://no-such-host.invalid/', { acceptUnresolved: true }),
    ).resolves.toBeDefined();
    await expect(strict.check('https://no-such-host.invalid/')).rejects.toBeInstanceOf(UrlRefused);
  });

  it('lets allow-listed hosts, addresses and ranges through', async () => {
    const policy = new WebhookUrlPolicy(['127.0.0.1', '10.1.0.0/16', 'receiver.internal']);
    await expect(policy.check('http://127.0.0.1:8080/')).resolves.toBeDefined();
    await expect(policy.check('http://10.1.2.3/')).resolves.toBeDefined();
    await expect(policy.check('http://receiver.internal/')).resolves.toBeDefined();
    await expect(policy.check('http://10.2.0.1/')).rejects.toBeInstanceOf(UrlRefused);
    await expect(policy.check('http://127.0.0.2/')).rejects.toBeInstanceOf(UrlRefused);
  });
});
