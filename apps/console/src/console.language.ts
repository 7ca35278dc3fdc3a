// Which language the console speaks: the account's (`GET /me`'s `language`)
// once signed in, the browser's before that, English when the console has no
// complete texts in it. The codes are the respondent page's (Typeform's
// `settings.language`), with the same BCP 47 tags for `<html lang>`: the
// table is repeated here because importing the respondent page's would bring
// all its texts into the console's script (console.language.spec checks that
// the two agree).
export const languageTags = {
  en: 'en',
  es: 'es',
  ca: 'ca',
  fr: 'fr',
  de: 'de',
  ru: 'ru',
  it: 'it',
  da: 'da',
  pt: 'pt',
  ch: 'zh-Hans',
  zh: 'zh-Hant',
  nl: 'nl',
  no: 'no',
  uk: 'uk',
  ja: 'ja',
  ko: 'ko',
  hr: 'hr',
  fi: 'fi',
  sv: 'sv',
  pl: 'pl',
  el: 'el',
  hu: 'hu',
  tr: 'tr',
  cs: 'cs',
  et: 'et',
  di: 'de',
  ar: 'ar',
  he: 'he',
  lt: 'lt',
} as const;

export type ConsoleLanguage = keyof typeof languageTags;

/** Laid out right to left. */
const rightToLeft: ReadonlySet<ConsoleLanguage> = new Set(['ar', 'he']);

export interface LanguageChoice {
  language: ConsoleLanguage;
  /** For `<html lang>`. */
  tag: string;
  dir: 'ltr' | 'rtl';
}

export function languageChoice(language: ConsoleLanguage): LanguageChoice {
  return { language, tag: languageTags[language], dir: rightToLeft.has(language) ? 'rtl' : 'ltr' };
}

const isCode = (code: string): code is ConsoleLanguage => Object.hasOwn(languageTags, code);

/** The account's language, when the console has it; English otherwise. */
export function accountLanguage(
  code: string | undefined,
  available: ReadonlySet<ConsoleLanguage>,
): ConsoleLanguage {
  return code !== undefined && isCode(code) && available.has(code) ? code : 'en';
}

// A browser's tag to the respondent page's code: Chinese by its script (or
// the region that writes it), Norwegian Bokmål and Nynorsk as `no`; German
// is the formal `de`, never `di`.
function codeOfTag(tag: string): ConsoleLanguage | undefined {
  const [primary = '', ...rest] = tag.toLowerCase().split('-');
  if (primary === 'zh') {
    const traditional = rest.some((part) => ['hant', 'tw', 'hk', 'mo'].includes(part));
    return traditional ? 'zh' : 'ch';
  }
  if (primary === 'nb' || primary === 'nn') return 'no';
  if (primary === 'di' || primary === 'ch') return undefined;
  return isCode(primary) ? primary : undefined;
}

/** Before signing in: the first of the browser's languages the console has, else English. */
export function browserLanguage(
  tags: readonly string[],
  available: ReadonlySet<ConsoleLanguage>,
): ConsoleLanguage {
  for (const tag of tags) {
    const code = codeOfTag(tag);
    if (code && available.has(code)) return code;
  }
  return 'en';
}
