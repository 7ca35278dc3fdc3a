import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Where a webhook may send: http(s) only, and never to an address inside our
// own network (loopback, private, link-local, cloud metadata, ...), which would
// let anyone with a token probe it. Checked when a webhook is saved and again
// at every delivery, on the addresses the name resolves to then (DNS can change).
// Hosts, addresses and CIDR ranges in the allow-list (WEBHOOK_ALLOWED_HOSTS)
// are let through: tests and the local demo receive on 127.0.0.1.

const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, and the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local, including fd00:ec2::254 (AWS metadata over IPv6)
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

export class UrlRefused extends Error {}

export class WebhookUrlPolicy {
  private readonly allowedHosts = new Set<string>();
  private readonly allowedAddresses = new BlockList();

  constructor(allowList: readonly string[]) {
    for (const entry of allowList.map((item) => item.trim().toLowerCase()).filter(Boolean)) {
      const [address, prefix] = entry.split('/');
      const family = isIP(address ?? '');
      if (family === 0) this.allowedHosts.add(entry);
      else if (prefix === undefined)
        this.allowedAddresses.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.allowedAddresses.addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  allowsHost(host: string): boolean {
    return this.allowedHosts.has(host.toLowerCase());
  }

  // The URL's form: absolute, http or https, no credentials in it.
  parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UrlRefused('the url is not an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UrlRefused('the url must use http or https');
    }
    if (url.username || url.password) throw new UrlRefused('the url must not carry credentials');
    return url;
  }

  // The URL is acceptable and, when its host is a name, every address it
  // resolves to now is too. A name that does not resolve yet is accepted when
  // a webhook is saved (`acceptUnresolved`): delivery checks it again anyway.
  async check(
    raw: string,
    options: { acceptUnresolved?: boolean } = {},
  ): Promise<{ url: URL; addresses: string[] }> {
    const url = this.parse(raw);
    const host = hostOf(url);
    if (this.allowedHosts.has(host)) return { url, addresses: [] };
    if (isIP(host) !== 0) {
      this.checkAddress(host);
      return { url, addresses: [host] };
    }
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) {
      throw new UrlRefused(`the host ${host} is internal`);
    }
    let resolved: { address: string }[];
    try {
      resolved = await lookup(host, { all: true, verbatim: true });
    } catch {
      if (options.acceptUnresolved) return { url, addresses: [] };
      throw new UrlRefused(`the host ${host} does not resolve`);
    }
    for (const { address } of resolved) this.checkAddress(address);
    return { url, addresses: resolved.map((entry) => entry.address) };
  }

  checkAddress(address: string): void {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowedAddresses.check(address, family)) return;
    const mapped = family === 'ipv6' ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
    if (mapped) {
      this.checkAddress(mapped);
      return;
    }
    if (internal.check(address, family)) {
      throw new UrlRefused(`the address ${address} is private, loopback, link-local or reserved`);
    }
  }
}

function hostOf(url: URL): string {
  const host = url.hostname.toLowerCase();
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
