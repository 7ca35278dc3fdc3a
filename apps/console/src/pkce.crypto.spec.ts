import { codeChallengeOf, isCodeVerifier } from '@formline/tokens';
import { base64url, challengeOf, randomUrlSafe } from './pkce.crypto';

describe("the console's PKCE", () => {
  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes verifiers the server accepts, whose challenge is the one the server computes', async () => {
    for (let i = 0; i < 20; i++) {
      const verifier = randomUrlSafe(32);
      expect(verifier).toHaveLength(43);
      expect(isCodeVerifier(verifier)).toBe(true);
      expect(await challengeOf(verifier)).toBe(codeChallengeOf(verifier));
    }
  });

  it('writes base64url without padding or the two characters URLs treat apart', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff, 0xfe]))).toBe('-__-');
    expect(base64url(new Uint8Array([1]))).toBe('AQ');
    expect(new Set(Array.from({ length: 50 }, () => randomUrlSafe(16))).size).toBe(50);
  });
});
