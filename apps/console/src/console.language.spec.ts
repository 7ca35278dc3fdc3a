import { readFileSync } from 'node:fs';
import path from 'node:path';
import { languages } from '@formline/form-definition';
import { accountLanguage, browserLanguage, languageChoice, languageTags } from './console.language';

// The respondent page's table (pageLanguages in libs/respondent-page), read
// from its source: the console may not import that library (its texts would
// fill the bundle, and its scope is not the console's).
const pageSource = readFileSync(
  path.join(__dirname, '../../../libs/respondent-page/src/page-texts.ts'),
  'utf8',
);
const pageTable = pageSource.slice(pageSource.indexOf('export const pageLanguages'));
const pageLanguages = Object.fromEntries(
  [
    ...pageTable.matchAll(/^ {2}([a-z]{2}): \{ tag: '([A-Za-z-]+)', texts: [a-z]{2}(, rtl: true)? \},$/gm),
  ].map(([, code, tag, rtl]) => [code, { tag, rtl: rtl !== undefined }]),
) as Record<string, { tag: string; rtl: boolean }>;

describe("the console's language", () => {
  it("has the respondent page's codes and tags", () => {
    expect(Object.keys(languageTags).sort()).toEqual([...languages].sort());
    const pageTags = Object.fromEntries(Object.entries(pageLanguages).map(([code, { tag }]) => [code, tag]));
    expect(languageTags).toEqual(pageTags);
  });

  it('lays out Arabic and Hebrew right to left, as the respondent page does', () => {
    expect(Object.keys(pageLanguages)).toHaveLength(languages.length);
    for (const code of Object.keys(languageTags) as Array<keyof typeof languageTags>) {
      expect(languageChoice(code).dir).toBe(pageLanguages[code].rtl ? 'rtl' : 'ltr');
    }
    expect(languageChoice('ch')).toEqual({ language: 'ch', tag: 'zh-Hans', dir: 'ltr' });
  });

  const available = new Set(['en', 'es', 'ch', 'zh', 'no', 'de', 'di'] as const);

  it("takes the account's language when the console has it, English otherwise", () => {
    expect(accountLanguage('es', available)).toBe('es');
    expect(accountLanguage('di', available)).toBe('di');
    expect(accountLanguage('fr', available)).toBe('en');
    expect(accountLanguage('xx', available)).toBe('en');
    expect(accountLanguage('constructor', available)).toBe('en');
    expect(accountLanguage(undefined, available)).toBe('en');
  });

  it("takes the first of the browser's languages it has, before signing in", () => {
    expect(browserLanguage(['es-ES', 'en'], available)).toBe('es');
    expect(browserLanguage(['fr-FR', 'es'], available)).toBe('es');
    expect(browserLanguage(['fr-FR'], available)).toBe('en');
    expect(browserLanguage([], available)).toBe('en');
    expect(browserLanguage(['zh-TW'], available)).toBe('zh');
    expect(browserLanguage(['zh-Hant-HK'], available)).toBe('zh');
    expect(browserLanguage(['zh-CN'], available)).toBe('ch');
    expect(browserLanguage(['nb-NO'], available)).toBe('no');
    expect(browserLanguage(['de-AT'], available)).toBe('de');
    // Typeform's own codes are not browser tags.
    expect(browserLanguage(['di', 'ch'], available)).toBe('en');
  });
});
