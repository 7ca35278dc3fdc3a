import { languages } from '@formline/form-definition';
import { pageDirection, pageLanguageTag, pageLanguages, pageTexts } from './page-texts';

// Every language Typeform's `settings.language` accepts has the page's words,
// all of them, with the same placeholders as the English ones.
describe("the respondent page's texts", () => {
  const english = pageTexts('en');
  const keys = Object.keys(english).sort();
  const placeholders = (text: string) => [...text.matchAll(/\{[a-z]+\}/g)].map(([p]) => p).sort();

  it.each([...languages])('has every text in %s, with its placeholders', (language) => {
    const texts = pageTexts(language);
    expect(Object.keys(texts).sort()).toEqual(keys);
    for (const key of keys) {
      const text = texts[key as keyof typeof texts];
      expect({ key, text: typeof text === 'string' && text.trim().length > 0 }).toEqual({ key, text: true });
      expect({ key, placeholders: placeholders(text) }).toEqual({
        key,
        placeholders: placeholders(english[key as keyof typeof english]),
      });
    }
  });

  it('has its own words for each language, not English under another name', () => {
    for (const language of languages.filter((code) => code !== 'en')) {
      const texts = pageTexts(language);
      expect({ language, same: texts.submitFailed === english.submitFailed }).toEqual({
        language,
        same: false,
      });
    }
    expect(Object.keys(pageLanguages).sort()).toEqual([...languages].sort());
  });

  it("names each language in the page's lang attribute by its BCP 47 tag", () => {
    expect(pageLanguageTag('ch')).toBe('zh-Hans');
    expect(pageLanguageTag('zh')).toBe('zh-Hant');
    expect(pageLanguageTag('di')).toBe('de');
    expect(pageLanguageTag('fr')).toBe('fr');
  });

  it('lays Arabic and Hebrew out right to left, and every other language left to right', () => {
    expect(languages.filter((language) => pageDirection(language) === 'rtl').sort()).toEqual(['ar', 'he']);
    expect([pageLanguageTag('ar'), pageLanguageTag('he'), pageLanguageTag('lt')]).toEqual(['ar', 'he', 'lt']);
    expect([pageDirection(undefined), pageDirection('__proto__'), pageDirection('xx')]).toEqual([
      'ltr',
      'ltr',
      'ltr',
    ]);
  });

  it('reads English for a language it does not know, and never an inherited key', () => {
    expect(pageTexts('xx')).toBe(english);
    expect(pageTexts('constructor')).toBe(english);
    expect(pageTexts(undefined)).toBe(english);
    expect(pageLanguageTag('__proto__')).toBe('en');
  });
});
