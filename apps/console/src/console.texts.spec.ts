import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Catalog,
  ConsoleTexts,
  englishTexts,
  fill,
  placeholdersOf,
  type PluralText,
} from './console.texts';
import { type ConsoleLanguage, languageChoice, languageTags } from './console.language';

const textsDir = path.join(__dirname, 'texts');
const read = (file: string) => JSON.parse(readFileSync(path.join(textsDir, file), 'utf8')) as Catalog;
const english = read('en.json');
const translations = readdirSync(textsDir)
  .filter((file) => file !== 'en.json')
  .map((file) => ({ code: file.replace(/\.json$/, '') as ConsoleLanguage, catalog: read(file) }));

const forms = (entry: string | PluralText): Array<[string, string]> =>
  typeof entry === 'string' ? [['', entry]] : Object.entries(entry);
const sorted = (names: string[]) => [...new Set(names)].sort();

describe("the console's texts", () => {
  it('fills placeholders, leaving a brace without a param as it is', () => {
    const plain = (value: number) => String(value);
    expect(fill('The form “{title}” is created in {workspace}.', { title: 'A', workspace: 'B' }, plain)).toBe(
      'The form “A” is created in B.',
    );
    expect(fill('{a}{a} {b', { a: 'x' }, plain)).toBe('xx {b');
    expect(fill('{ {unknown} {n}', { n: 3 }, plain)).toBe('{ {unknown} 3');
    // A param's own braces are not filled again.
    expect(fill('{a} {b}', { a: '{b}', b: 'y' }, plain)).toBe('{b} y');
    expect(fill('{constructor}', {}, plain)).toBe('{constructor}');
    // A long run of braces is scanned once, quickly.
    const started = Date.now();
    fill('{'.repeat(100_000), {}, plain);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('picks the plural form by the language’s rules, and writes numbers its way', () => {
    expect(englishTexts.t('forms.count', { count: 1 })).toBe('1 form.');
    expect(englishTexts.t('forms.count', { count: 0 })).toBe('0 forms.');
    expect(englishTexts.t('forms.count', { count: 1234 })).toBe('1234 forms.');
    expect(englishTexts.number(1234)).toBe('1,234');
    const russian = new ConsoleTexts(languageChoice('ru'), {
      ...english,
      'forms.count': {
        one: '{count} форма',
        few: '{count} формы',
        many: '{count} форм',
        other: '{count} формы',
      },
    });
    expect([1, 3, 5, 21, 1.5].map((count) => russian.t('forms.count', { count }))).toEqual([
      '1 форма',
      '3 формы',
      '5 форм',
      '21 форма',
      '1,5 формы',
    ]);
    const german = new ConsoleTexts(languageChoice('de'), english);
    expect(german.number(1234.5)).toBe('1.234,5');
    expect(german.tag).toBe('de');
  });

  it('falls back to English for a key a catalog lacks', () => {
    const partial = new ConsoleTexts(languageChoice('es'), { 'forms.heading': 'Formularios' } as Catalog);
    expect(partial.t('forms.heading')).toBe('Formularios');
    expect(partial.t('forms.new')).toBe('New form');
  });

  it('has plain words in English: no HTML, a plural form for every English category', () => {
    for (const [key, entry] of Object.entries(english)) {
      for (const [, text] of forms(entry)) expect(`${key}: ${text}`).not.toMatch(/[<>]/);
      if (typeof entry !== 'string') expect(Object.keys(entry).sort()).toEqual(['one', 'other']);
    }
  });

  describe.each(translations)('in $code', ({ code, catalog }) => {
    it('is a language the console knows', () => {
      expect(Object.keys(languageTags)).toContain(code);
    });

    it('has every key English has, and no other', () => {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
    });

    it("keeps English's placeholders, and has the plural forms of its language", () => {
      const categories = new Intl.PluralRules(languageTags[code]).resolvedOptions().pluralCategories;
      const wrong: string[] = [];
      for (const [key, entry] of Object.entries(english) as Array<[keyof Catalog, string | PluralText]>) {
        const translated = catalog[key];
        if (translated === undefined) continue;
        const wanted = sorted(forms(entry).flatMap(([, text]) => placeholdersOf(text)));
        if (typeof entry === 'string') {
          if (typeof translated !== 'string' || placeholdersOf(translated).join() !== wanted.join())
            wrong.push(key);
          continue;
        }
        if (
          typeof translated === 'string' ||
          sorted(Object.keys(translated)).join() !== sorted([...categories]).join() ||
          sorted(placeholdersOf(translated.other)).join() !== wanted.join() ||
          forms(translated).some(([, text]) => placeholdersOf(text).some((name) => !wanted.includes(name)))
        )
          wrong.push(key);
      }
      for (const [key, entry] of Object.entries(catalog)) {
        if (forms(entry).some(([, text]) => /[<>]/.test(text) || text.trim() === '')) wrong.push(key);
      }
      expect(wrong).toEqual([]);
    });
  });
});
