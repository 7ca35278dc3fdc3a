import { redirectUriSchema } from './oauth.contract';
import { apiScopes, isScope, scopes } from './scopes';

describe('redirectUriSchema', () => {
  it.each([
    'https://app.example/callback',
    'https://app.example/cb?x=1',
    'http://localhost:3000/cb',
    'http://127.0.0.1:9/cb',
  ])('accepts %p', (uri) => {
    expect(redirectUriSchema.safeParse(uri).success).toBe(true);
  });

  it.each([
    'not a url',
    '',
    'http://app.example/cb',
    'https://app.example/cb#frag',
    'javascript:alert(1)',
    'ftp://x.example/',
  ])('refuses %p without throwing', (uri) => {
    expect(redirectUriSchema.safeParse(uri).success).toBe(false);
  });
});

describe('scopes', () => {
  it("are Typeform's, and offline is not an API scope", () => {
    expect(scopes).toHaveLength(14);
    expect(apiScopes).not.toContain('offline');
    expect(apiScopes).toHaveLength(13);
    expect(isScope('forms:read')).toBe(true);
    expect(isScope('forms:delete')).toBe(false);
  });
});
