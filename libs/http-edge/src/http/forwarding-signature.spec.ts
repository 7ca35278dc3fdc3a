import { randomBytes } from 'node:crypto';
import { forwardedAccountHeader, forwardedSignatureHeader } from '@formline/contracts';
import { forwardingHeaders, isForwardedByGateway } from './forwarding-signature';

describe('the signature of a forwarded request', () => {
  const key = randomBytes(32);
  const now = Date.UTC(2026, 10, 27, 12);
  const request = { method: 'GET', url: '/respondent-files/form1/field1/a.pdf', accountId: 'account-a' };
  const signed = forwardingHeaders(key, request, now);
  const signature = signed[forwardedSignatureHeader];

  it('carries the account and a signature the same key checks', () => {
    expect(signed[forwardedAccountHeader]).toBe('account-a');
    expect(signature).toMatch(/^v1=\d+\.[A-Za-z0-9_-]{43}$/);
    expect(isForwardedByGateway(key, request, signature, now)).toBe(true);
    expect(isForwardedByGateway(key, request, signature, now + 59_000)).toBe(true);
  });

  it('is refused for another path, method, account, key or time, or when absent or malformed', () => {
    expect(
      isForwardedByGateway(key, { ...request, url: '/respondent-files/form2/field1/a.pdf' }, signature, now),
    ).toBe(false);
    expect(isForwardedByGateway(key, { ...request, method: 'DELETE' }, signature, now)).toBe(false);
    expect(isForwardedByGateway(key, { ...request, accountId: 'account-b' }, signature, now)).toBe(false);
    expect(isForwardedByGateway(key, { ...request, accountId: undefined }, signature, now)).toBe(false);
    expect(isForwardedByGateway(randomBytes(32), request, signature, now)).toBe(false);
    expect(isForwardedByGateway(key, request, signature, now + 61_000)).toBe(false);
    expect(isForwardedByGateway(key, request, signature, now - 61_000)).toBe(false);
    for (const bad of [undefined, '', ['v1=1.x'], `${signature}x`, signature.replace('v1=', 'v2='), 'v1=.'])
      expect(isForwardedByGateway(key, request, bad, now)).toBe(false);
  });

  it('signs an anonymous request without an account header', () => {
    const anonymous = { method: 'POST', url: '/images', accountId: undefined };
    const headers = forwardingHeaders(key, anonymous, now);
    expect(headers[forwardedAccountHeader]).toBeUndefined();
    expect(isForwardedByGateway(key, anonymous, headers[forwardedSignatureHeader], now)).toBe(true);
  });
});
