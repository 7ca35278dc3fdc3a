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
  // Typeform's documented scope names: tokens and OAuth apps made for Typeform
  // ask for exactly these, so a renamed or dropped one breaks them.
  const typeformScopes = [
    'accounts:read',
    'forms:read',
    'forms:write',
    'images:read',
    'images:write',
    'themes:read',
    'themes:write',
    'responses:read',
    'responses:write',
    'webhooks:read',
    'webhooks:write',
    'workspaces:read',
    'workspaces:write',
  ];

  it("are Typeform's, and offline only grants refresh tokens", () => {
    expect([...apiScopes].sort()).toEqual([...typeformScopes].sort());
    expect([...scopes].sort()).toEqual([...typeformScopes, 'offline'].sort());
  });

  it.each([
    ['forms:read', true],
    ['offline', true],
    ['forms:delete', false],
    ['FORMS:READ', false],
    ['', false],
  ])('knows %p: %p', (name, known) => {
    expect(isScope(name)).toBe(known);
  });
});
