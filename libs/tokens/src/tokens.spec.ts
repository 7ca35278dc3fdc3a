import { generateToken, hashAccessToken, isBearerTokenShape, tokenPrefixes } from './access-token';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './password-hash';
import { codeChallengeOf, isCodeChallenge, isCodeVerifier } from './pkce';

describe('tokens', () => {
  it('prefixes each kind, so scanners and people can tell them apart', () => {
    for (const [kind, prefix] of Object.entries(tokenPrefixes)) {
      const token = generateToken(kind as keyof typeof tokenPrefixes);
      expect(token.startsWith(prefix)).toBe(true);
      expect(token.length).toBeGreaterThan(40);
    }
  });

  it('accepts only personal and OAuth access tokens as bearer tokens', () => {
    expect(isBearerTokenShape(generateToken('personal'))).toBe(true);
    expect(isBearerTokenShape(generateToken('oauthAccess'))).toBe(true);
    expect(isBearerTokenShape(generateToken('oauthRefresh'))).toBe(false);
    expect(isBearerTokenShape('abc')).toBe(false);
  });

  it('hashes to 64 hex characters, never the token itself', () => {
    const token = generateToken('personal');
    expect(hashAccessToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAccessToken(token)).not.toContain(token);
  });
});

describe('password hashes', () => {
  it('verifies the right password only, with a salt per hash', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct hors', hash)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(hash);
  });

  it('refuses a malformed stored hash, and an unknown account, without throwing', async () => {
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
    expect(await verifyAgainstNothing('x')).toBe(false);
  });
});

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636, appendix B', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(isCodeVerifier(verifier)).toBe(true);
    expect(codeChallengeOf(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('checks the shapes of verifiers and challenges', () => {
    expect(isCodeVerifier('short')).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(isCodeChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c')).toBe(false);
  });
});
