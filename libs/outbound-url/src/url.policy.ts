import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// Where the product may send a request a caller named (a webhook's receiver,
// an image's url): https only, and never to an address inside our own network
// (loopback, private, link-local, cloud metadata, ...), which would let anyone
// with a token probe it. A webhook's url is checked when it is saved and again
// at every delivery, on the addresses the name resolves to then (DNS can
// change). Hosts, addresses and CIDR ranges in the allow-list (each user's own
// setting: WEBHOOK_ALLOWED_HOSTS, IMAGE_URL_ALLOWED_HOSTS) are let through,
// over plain http too: tests and the local demo receive on 127.0.0.1.
//
// An address is public only when ipaddr.js classifies it as plain `unicast`:
// every special range it knows (private, loopback, link-local, unique-local,
// site-local, carrier-grade NAT, multicast, reserved, IPv4-mapped and
// -translated, NAT64, 6to4, Teredo, ...) is refused, since each of them either
// stays inside a network or tunnels to an IPv4 address we cannot see from here.
// ipaddr.js calls the deprecated IPv4-compatible form (::/96, e.g. ::7f00:1 =
// 127.0.0.1) `unicast`; that range is refused here by hand.

export class UrlRefused extends Error {}

const ipv4Compatible = ipaddr.parseCIDR('::/96');

// The message never names the address a host resolved to: a caller must not
// learn the inside of our network from our errors.
const internalAddress = 'the url points to an internal, private or reserved address';

export class OutboundUrlPolicy {
  private readonly allowedHosts = new Set<string>();
  private readonly allowedRanges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];

  constructor(allowList: readonly string[]) {
    for (const entry of allowList.map((item) => item.trim().toLowerCase()).filter(Boolean)) {
      if (ipaddr.isValidCIDR(entry)) this.allowedRanges.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(entry)) {
        const address = ipaddr.parse(entry);
        this.allowedRanges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else this.allowedHosts.add(entry);
    }
  }

  allowsHost(host: string): boolean {
    return this.allowedHosts.has(host.toLowerCase());
  }

  // The URL's form: absolute, https (http only to an allow-listed host), no
  // credentials in it.
  parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UrlRefused('the url is not an absolute URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.allowListed(hostOf(url)))) {
      throw new UrlRefused('the url must use https');
    }
    if (url.username || url.password) throw new UrlRefused('the url must not carry credentials');
    return url;
  }

  // The URL is acceptable and, when its host is a name, every address it
  // resolves to now is too. A name that does not resolve yet is accepted when
  // a webhook is saved (`acceptUnresolved`): delivery checks it again anyway.
  // `resolve` replaces the system's look-up (resolveHost under a deadline, for
  // a request that then pins its socket to the addresses answered); it answers
  // the host's addresses, and an empty list when it has none.
  async check(
    raw: string,
    options: { acceptUnresolved?: boolean; resolve?: (host: string) => Promise<string[]> } = {},
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
    const resolve =
      options.resolve ??
      (async (name: string) =>
        (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address));
    let addresses: string[];
    try {
      addresses = await resolve(host);
    } catch (error) {
      // A look-up cut off by its deadline is the caller's to name.
      if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
        throw error;
      addresses = [];
    }
    if (addresses.length === 0) {
      if (options.acceptUnresolved) return { url, addresses: [] };
      throw new UrlRefused(`the host ${host} does not resolve`);
    }
    for (const address of addresses) this.checkAddress(address);
    return { url, addresses };
  }

  // A socket's DNS lookup that refuses, at connection time, every address the
  // policy would refuse (a name that re-resolves to an internal address
  // between check and connect is still refused): pass it as `lookup` to
  // http(s).request when `check` answered no addresses (an allow-listed name,
  // which only the system's look-up, /etc/hosts included, may know). The
  // refusal arrives as the request's error, a UrlRefused.
  readonly connectLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, options, (error, address: string | LookupAddress[], family?: number) => {
      if (error) return callback(error, address, family);
      try {
        const all = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
        if (!this.allowsHost(hostname)) for (const candidate of all) this.checkAddress(candidate);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, '', 0);
      }
      (callback as (...args: unknown[]) => void)(null, address, family);
    });
  };

  // Throws UrlRefused unless `address` is public or allow-listed.
  checkAddress(address: string): void {
    if (!ipaddr.isValid(address)) throw new UrlRefused('the url does not point to a valid address');
    const parsed = ipaddr.parse(address);
    if (this.inAllowedRange(parsed)) return;
    if (!isPublic(parsed)) throw new UrlRefused(internalAddress);
  }

  private allowListed(host: string): boolean {
    if (this.allowedHosts.has(host)) return true;
    return ipaddr.isValid(host) && this.inAllowedRange(ipaddr.parse(host));
  }

  private inAllowedRange(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    // An IPv4-mapped address is its IPv4 address for the allow-list: the
    // socket reaches the same host.
    const candidates: (ipaddr.IPv4 | ipaddr.IPv6)[] = [address];
    if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress())
      candidates.push(address.toIPv4Address());
    return candidates.some((candidate) =>
      this.allowedRanges.some(([net, bits]) => net.kind() === candidate.kind() && candidate.match(net, bits)),
    );
  }
}

export function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.range() !== 'unicast') return false;
  return !(address instanceof ipaddr.IPv6 && address.match(ipv4Compatible));
}

function hostOf(url: URL): string {
  const host = url.hostname.toLowerCase();
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
