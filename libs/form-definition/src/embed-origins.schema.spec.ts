import { DomainError } from '@formline/errors';
import { embedOriginLimits, embedOriginProblem } from './embed-origins.schema';
import { parseFormDefinition } from './parse-form';

// The origins that may frame a form's page go into a response header: only
// exact origins pass, and the list is bounded.
describe('embed origins', () => {
  it.each([
    'https://www.example.com',
    'https://example.com:8443',
    'http://localhost:3000',
    'https://10.0.0.7',
    'https://xn--bcher-kva.example',
  ])('accepts the origin %s', (origin) => {
    expect(embedOriginProblem(origin)).toBeUndefined();
  });

  it.each([
    ['a wildcard host', 'https://*.example.com'],
    ['a wildcard', '*'],
    ['a keyword', "'self'"],
    ['a path', 'https://example.com/embed'],
    ['a trailing slash', 'https://example.com/'],
    ['upper case', 'https://Example.com'],
    ['the default port', 'https://example.com:443'],
    ['credentials', 'https://user:pw@example.com'],
    ['another scheme', 'ftp://example.com'],
    ['a scheme alone', 'https:'],
    ['a data address', 'data:text/html,x'],
    ['a query', 'https://example.com?x'],
    ['a second source', 'https://a.example https://b.example'],
    ['a directive', 'https://a.example;script-src *'],
    ['a comma', 'https://a.example,b.example'],
    ['a quote', "https://a.example'"],
    ['an IPv6 address', 'https://[::1]'],
    ['a unicode host', 'https://bücher.example'],
    ['a bare host', 'example.com'],
  ])('refuses %s (%s)', (_what, origin) => {
    expect(embedOriginProblem(origin)).toEqual(expect.any(String));
  });

  const form = (embed_origins: unknown) => ({ title: 'Embedded', settings: { embed_origins } });
  const problems = (body: unknown) => {
    try {
      parseFormDefinition(body);
      return [];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return (error.details ?? []).map(({ field }) => field);
    }
  };

  it('is a bounded list in the settings, each entry checked', () => {
    expect(problems(form(['https://www.example.com', 'http://localhost:3000']))).toEqual([]);
    expect(problems(form(['https://www.example.com', 'https://*.example.com']))).toEqual([
      'settings.embed_origins[1]',
    ]);
    const many = Array.from({ length: embedOriginLimits.count + 1 }, (_, i) => `https://s${i}.example`);
    expect(problems(form(many))).toEqual(['settings.embed_origins']);
    expect(problems(form([`https://${'a'.repeat(embedOriginLimits.length)}.example`]))).toEqual([
      'settings.embed_origins[0]',
    ]);
    expect(problems(form('https://www.example.com'))).toContain('settings.embed_origins');
  });

  it('is kept without duplicates when set, and absent when not', () => {
    const settingsOf = (body: unknown) => parseFormDefinition(body).definition.settings;
    expect(settingsOf(form(['https://a.example', 'https://a.example', 'https://b.example']))).toHaveProperty(
      'embed_origins',
      ['https://a.example', 'https://b.example'],
    );
    expect(settingsOf({ title: 'Plain' })).not.toHaveProperty('embed_origins');
    expect(settingsOf(form([]))).not.toHaveProperty('embed_origins');
  });
});
