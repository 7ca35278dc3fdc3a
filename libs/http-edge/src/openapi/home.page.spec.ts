import { homeDocument, homePageHtml, prefersHtml } from './home.page';

describe('the home page of a base address', () => {
  it('links the demo form when one is configured, and none otherwise', () => {
    expect(homeDocument({ region: 'eu', demoFormId: 'demoEU01' })).toMatchObject({
      region: 'eu',
      demo_form: '/to/demoEU01',
    });
    expect(homeDocument({ region: 'us', demoFormId: '' }).demo_form).toBeNull();
    expect(homePageHtml({ region: 'us', demoFormId: '' })).not.toContain('Try a form');
  });

  it("links the owner's console", () => {
    expect(homeDocument({ region: 'us', demoFormId: '' }).console).toBe('/console');
    expect(homePageHtml({ region: 'us', demoFormId: '' })).toContain('<a href="/console">/console</a>');
  });

  it('escapes what it writes into the page', () => {
    const html = homePageHtml({ region: 'us', demoFormId: '"><script>x</script>' });
    expect(html).not.toContain('<script>');
    expect(html).toContain('/to/%22%3E%3Cscript%3Ex%3C%2Fscript%3E');
  });

  it('answers a browser with the page and anything else with JSON', () => {
    expect(prefersHtml('text/html,application/xhtml+xml;q=0.9')).toBe(true);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml(undefined)).toBe(false);
  });
});
