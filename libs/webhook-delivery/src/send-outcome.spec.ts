import { sendFailureKinds } from '@formline/contracts';
import { failureKindOf, SendFailureKind } from './send-outcome';

describe('failureKindOf', () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });

  it('names each network failure by its kind, never by its message', () => {
    expect(failureKindOf(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(failureKindOf(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe('timeout');
    expect(failureKindOf(withCode('ECONNREFUSED'))).toBe('connection_refused');
    expect(failureKindOf(withCode('ECONNRESET'))).toBe('connection_reset');
    expect(failureKindOf(withCode('ENOTFOUND'))).toBe('dns');
    expect(failureKindOf(withCode('DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe('tls');
    expect(failureKindOf(withCode('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('tls');
    expect(failureKindOf(withCode('CERT_HAS_EXPIRED'))).toBe('tls');
    expect(failureKindOf(withCode('EHOSTUNREACH'))).toBe('network');
    expect(failureKindOf('no error object')).toBe('network');
  });

  it('declares in the API contract exactly the kinds the database stores', () => {
    expect([...sendFailureKinds].sort()).toEqual(Object.values(SendFailureKind).sort());
  });
});
