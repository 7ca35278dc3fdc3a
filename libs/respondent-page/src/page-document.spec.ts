import { escapeHtml, jsonForHtml, respondentPage } from './page-document';
import { pageTexts } from './page-texts';

const theme = {
  id: 'default',
  name: 'Default',
  visibility: 'public' as const,
  font: 'Source Sans Pro' as const,
  colors: { question: '#3D3D3D', answer: '#4FB0AE', button: '#4FB0AE', background: '#FFFFFF' },
  has_transparent_button: false,
  fields: { alignment: 'left' as const, font_size: 'medium' as const },
  screens: { alignment: 'center' as const, font_size: 'small' as const },
  rounded_corners: 'small' as const,
};

describe('the respondent page document', () => {
  const hostile = '</script><script>alert(1)</script>\u2028"\'&<!--';

  it('escapes text for HTML and JSON for a data block', () => {
    expect(escapeHtml('<a href="x">&\'</a>')).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;&#60;/a&#62;');
    const json = jsonForHtml({ title: hostile });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ title: hostile });
  });

  it('keeps form text out of the markup, and lets the page talk only to its origin and the form region', () => {
    const page = respondentPage({
      head: {
        title: hostile,
        description: hostile,
        image: 'https://img.example/a.png',
        language: 'en',
        indexable: false,
      },
      data: {
        formId: 'f1',
        form: { title: hostile } as never,
        submitUrl: 'https://eu.example/forms/f1/submissions',
        texts: pageTexts('en'),
        images: { 'https://us.example/images/abc': '/images/abc' },
      },
      theme,
      scriptPath: '/to/assets/respondent-page.abc.js',
      iconPath: '/to/assets/favicon.def.svg',
    });
    expect(page.html.match(/<script/g)).toHaveLength(2); // the data block and our script
    // The page's own icon, from its own origin (no request for a missing /favicon.ico).
    expect(page.html).toContain('<link rel="icon" href="/to/assets/favicon.def.svg" type="image/svg+xml">');
    expect(page.html).not.toContain('<script>alert');
    expect(page.html).toContain('<meta name="robots" content="noindex, nofollow">');
    // The form's meta settings in the head: its image and description, escaped.
    expect(page.html).toContain('<meta property="og:image" content="https://img.example/a.png">');
    expect(page.html).toContain(`<meta name="description" content="${escapeHtml(hostile)}">`);
    expect(page.contentSecurityPolicy).toContain("connect-src 'self' https://eu.example;");
    expect(page.contentSecurityPolicy).toContain("script-src 'self'");
    expect(page.contentSecurityPolicy).not.toContain('unsafe');
    // Pictures from the page's own origin only: no other host, no data: or blob: URLs.
    expect(page.contentSecurityPolicy.split('; ')).toContain("img-src 'self'");
    // Framed by the gateway's own pages only.
    expect(page.contentSecurityPolicy.split('; ')).toContain("frame-ancestors 'self'");
    expect(page.contentSecurityPolicy).not.toMatch(/data:|blob:|\*/);
  });

  it('names the language and its direction on <html>', () => {
    const page = (language: string, direction?: 'rtl' | 'ltr') =>
      respondentPage({
        head: { title: 'T', language, direction, indexable: true },
        data: {
          formId: 'f1',
          form: { title: 'T' } as never,
          submitUrl: 'https://us.example/forms/f1/submissions',
          texts: pageTexts(language),
          images: {},
        },
        theme,
        scriptPath: '/to/assets/respondent-page.abc.js',
        iconPath: '/to/assets/favicon.def.svg',
      }).html;
    expect(page('ar', 'rtl')).toContain('<html lang="ar" dir="rtl">');
    expect(page('en')).toContain('<html lang="en" dir="ltr">');
  });

  it('reads texts in the form language, English when it has none', () => {
    expect(pageTexts('de').submit).toBe('Absenden');
    expect(pageTexts('xx').submit).toBe('Submit');
    expect(pageTexts('__proto__').submit).toBe('Submit');
  });

  it.each([
    ['es', ['ok', 'no']],
    ['fr', ['ok']],
    ['de', ['ok']],
  ])('leaves no English text in the %s page but the words that are the same', (language, same) => {
    const en = pageTexts('en');
    const texts = pageTexts(language);
    const english = (Object.keys(en) as Array<keyof typeof en>).filter((key) => texts[key] === en[key]);
    expect(english).toEqual(same);
  });
});
