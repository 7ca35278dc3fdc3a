import english from './texts/en.json';
import { type ConsoleLanguage, type LanguageChoice, languageChoice } from './console.language';

// The console's words (docs/decisions/console.md, "The console's language"):
// one catalog a language, texts/<code>.json, English's in the script and any
// other downloaded when chosen. A text is plain words with `{name}`
// placeholders (never HTML: Preact writes it as text); one that depends on a
// number is an object of Intl.PluralRules' categories, `other` always there.
export type TextKey = keyof typeof english;
export type PluralText = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
export type Catalog = Record<TextKey, string | PluralText>;
export type TextParams = Record<string, string | number>;

const englishCatalog: Catalog = english;

export class ConsoleTexts {
  readonly language: ConsoleLanguage;
  readonly tag: string;
  readonly dir: 'ltr' | 'rtl';
  private readonly plurals: Intl.PluralRules;
  // Numbers in texts as the language writes them, without grouping: a count
  // reads "1000" in English, as it always did; a decimal takes its comma.
  private readonly plainNumbers: Intl.NumberFormat;

  constructor(
    choice: LanguageChoice,
    private readonly catalog: Catalog,
  ) {
    this.language = choice.language;
    this.tag = choice.tag;
    this.dir = choice.dir;
    this.plurals = new Intl.PluralRules(choice.tag);
    this.plainNumbers = new Intl.NumberFormat(choice.tag, { useGrouping: false, maximumFractionDigits: 2 });
  }

  /** The text of `key` with its placeholders filled; `count` picks a plural text's form. */
  t = (key: TextKey, params: TextParams = {}): string => {
    const entry = this.catalog[key] ?? englishCatalog[key];
    const text =
      typeof entry === 'string'
        ? entry
        : (entry[this.plurals.select(typeof params.count === 'number' ? params.count : 0)] ?? entry.other);
    return fill(text, params, (value) => this.plainNumbers.format(value));
  };

  /** A count as texts write it: the language's digits, no grouping ("1234"). */
  count = (value: number): string => this.plainNumbers.format(value);

  /** A number with the language's grouping and decimals ("1,234.5", "1.234,5"). */
  number = (value: number, options?: Intl.NumberFormatOptions): string =>
    value.toLocaleString(this.tag, options);

  /** A moment, date and time, as the language writes them. */
  dateTime = (value: Date | string): string => new Date(value).toLocaleString(this.tag);

  /** A day (`2026-03-05`, no time zone) as the language writes it ("5 Mar 2026"). */
  day = (value: Date, options: Intl.DateTimeFormatOptions): string =>
    value.toLocaleDateString(this.tag, { ...options, timeZone: 'UTC' });
}

/**
 * `{name}` replaced by the param of that name, scanning once from left to
 * right (no regular expression); a brace with no such param stays as it is.
 */
export function fill(text: string, params: TextParams, formatNumber: (value: number) => string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('{', from);
    if (open < 0) return out + text.slice(from);
    const close = text.indexOf('}', open + 1);
    if (close < 0) return out + text.slice(from);
    const name = text.slice(open + 1, close);
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined) {
      out += text.slice(from, open + 1);
      from = open + 1;
    } else {
      out += text.slice(from, open) + (typeof value === 'number' ? formatNumber(value) : value);
      from = close + 1;
    }
  }
}

/** The placeholders a text names, for checking that a translation keeps them. */
export function placeholdersOf(text: string): string[] {
  const names: string[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{', from);
    if (open < 0) return names.sort();
    const close = text.indexOf('}', open + 1);
    if (close < 0) return names.sort();
    names.push(text.slice(open + 1, close));
    from = close + 1;
  }
}

/** The console in English, the words it starts with and falls back to. */
export const englishTexts = new ConsoleTexts(languageChoice('en'), englishCatalog);
