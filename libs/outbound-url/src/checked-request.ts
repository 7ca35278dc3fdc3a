import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type HostResolver, resolveHost, withinDeadline } from './host.resolver';
import { pinnedLookup } from './socket.lookup';
import type { OutboundUrlPolicy } from './url.policy';

// A caller-named URL checked now, and how its socket finds the host.
export interface CheckedTarget {
  url: URL;
  lookup: LookupFunction;
}

// The URL checked against the policy, its host looked up once within the
// signal's deadline and every address it names checked; the socket will
// connect only to those (no second look-up a rebinding name could answer with
// an internal address). An allow-listed name, which only the system's look-up
// may know, is looked up by the socket and still checked there. Throws the
// policy's UrlRefused, or the look-up's failure (the signal aborted when late).
export async function checkTarget(
  raw: string,
  policy: OutboundUrlPolicy,
  signal: AbortSignal,
  resolver: HostResolver = resolveHost,
): Promise<CheckedTarget> {
  const { url, addresses } = await policy.check(raw, {
    resolve: (host) => withinDeadline(resolver(host, signal), signal),
  });
  return { url, lookup: addresses.length > 0 ? pinnedLookup(addresses) : policy.connectLookup };
}

// A request to a checked target, over http or https as its URL says, its
// socket connecting only as the check decided.
export function requestTo(
  target: CheckedTarget,
  options: Omit<https.RequestOptions, 'lookup'>,
): http.ClientRequest {
  const transport = target.url.protocol === 'https:' ? https : http;
  return transport.request(target.url, { ...options, lookup: target.lookup });
}
