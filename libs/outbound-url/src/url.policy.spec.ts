import { UrlRefused, OutboundUrlPolicy } from './url.policy';

describe('OutboundUrlPolicy', () => {
  const strict = new OutboundUrlPolicy([]);

  // Every special range, by its IPv4 or IPv6 form: each one must be refused.
  it.each([
    ['loopback', 'https://127.0.0.1/'],
    ['loopback, elsewhere in 127/8', 'https://127.255.0.9/'],
    ['private 10/8', 'https://10.0.0.1/'],
    ['private 172.16/12', 'https://172.16.5.4/'],
    ['private 192.168/16', 'https://192.168.0.1/'],
    ['link-local, cloud metadata', 'https://169.254.169.254/latest/meta-data'],
    ['carrier-grade NAT', 'https://100.64.0.1/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['this network 0/8', 'https://0.1.2.3/'],
    ['IETF protocol assignments 192.0.0/24', 'https://192.0.0.1/'],
    ['benchmarking 198.18/15', 'https://198.18.0.1/'],
    ['documentation 192.0.2/24', 'https://192.0.2.1/'],
    ['multicast 224/4', 'https://224.0.0.1/'],
    ['reserved 240/4', 'https://240.0.0.1/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv6 unique-local (AWS metadata)', 'https://[fd00:ec2::254]/'],
    ['IPv6 unique-local fc00::/8', 'https://[fc00::1]/'],
    ['IPv6 site-local fec0::/10', 'https://[fec0::1]/'],
    ['IPv6 multicast', 'https://[ff02::1]/'],
    ['IPv6 documentation', 'https://[2001:db8::1]/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped public (a tunnel to IPv4 we do not check)', 'https://[::ffff:8.8.8.8]/'],
    ['IPv4-compatible loopback', 'https://[::7f00:1]/'],
    ['IPv4-compatible private', 'https://[::a00:1]/'],
    ['IPv4-translated (SIIT) loopback', 'https://[::ffff:0:7f00:1]/'],
    ['NAT64 well-known prefix', 'https://[64:ff9b::7f00:1]/'],
    ['NAT64 local-use prefix', 'https://[64:ff9b:1::a00:1]/'],
    ['6to4', 'https://[2002:7f00:1::1]/'],
    ['Teredo', 'https://[2001::1]/'],
    ['ORCHIDv2', 'https://[2001:20::1]/'],
    ['discard-only', 'https://[100::1]/'],
    ['localhost by name', 'https://localhost/'],
    ['a .localhost name', 'https://app.localhost/'],
    ['a .internal name', 'https://metadata.google.internal/'],
    ['another scheme', 'ftp://example.com/'],
    ['plain http to a public host', 'http://example.com/'],
    ['credentials in the url', 'https://user:pass@example.com/'],
    ['not a url', 'not a url'],
  ])('refuses %s: %s', async (_, url) => {
    await expect(strict.check(url, { acceptUnresolved: true })).rejects.toBeInstanceOf(UrlRefused);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'accepts the public address %s',
    (address) => {
      expect(() => strict.checkAddress(address)).not.toThrow();
    },
  );

  it('never names the address it refused', async () => {
    for (const url of ['https://10.1.2.3/', 'https://[::ffff:0:7f00:1]/']) {
      const refused = await strict.check(url).catch((error: unknown) => error as Error);
      expect(refused).toBeInstanceOf(UrlRefused);
      expect((refused as Error).message).not.toMatch(/10\.1\.2\.3|7f00|127\.0\.0\.1/);
    }
    expect(() => strict.checkAddress('192.168.7.7')).toThrow(/^(?!.*192\.168).*$/);
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

  it('lets allow-listed hosts, addresses and ranges through, over http too', async () => {
    const policy = new OutboundUrlPolicy(['127.0.0.1', '10.1.0.0/16', 'receiver.internal']);
    await expect(policy.check('http://127.0.0.1:8080/')).resolves.toBeDefined();
    await expect(policy.check('http://[::ffff:127.0.0.1]:8080/')).resolves.toBeDefined();
    await expect(policy.check('http://10.1.2.3/')).resolves.toBeDefined();
    await expect(policy.check('http://receiver.internal/')).resolves.toBeDefined();
    await expect(policy.check('https://10.2.0.1/')).rejects.toBeInstanceOf(UrlRefused);
    await expect(policy.check('https://127.0.0.2/')).rejects.toBeInstanceOf(UrlRefused);
    await expect(policy.check('http://93.184.216.34/')).rejects.toThrow('the url must use https');
  });
});

describe('OutboundUrlPolicy.connectLookup', () => {
  const resolve = (policy: OutboundUrlPolicy, host: string) =>
    new Promise<{ error: Error | null; address: unknown }>((done) =>
      policy.connectLookup(host, { all: true }, (error, address) => done({ error, address })),
    );

  it('refuses, when a socket connects, a name that resolves to an internal address', async () => {
    const { error } = await resolve(new OutboundUrlPolicy([]), 'localhost');
    expect(error).toBeInstanceOf(UrlRefused);
  });

  it('lets an allow-listed name through to the addresses it resolves to', async () => {
    const { error, address } = await resolve(new OutboundUrlPolicy(['localhost']), 'localhost');
    expect(error).toBeNull();
    expect(address).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]),
    );
  });
});
