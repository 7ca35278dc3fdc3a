import type { languages } from '@formline/form-definition';
import { ar } from './texts/ar.texts';
import { ca } from './texts/ca.texts';
import { ch } from './texts/ch.texts';
import { cs } from './texts/cs.texts';
import { da } from './texts/da.texts';
import { de } from './texts/de.texts';
import { di } from './texts/di.texts';
import { el } from './texts/el.texts';
import { en } from './texts/en.texts';
import { es } from './texts/es.texts';
import { et } from './texts/et.texts';
import { fi } from './texts/fi.texts';
import { fr } from './texts/fr.texts';
import { he } from './texts/he.texts';
import { hr } from './texts/hr.texts';
import { hu } from './texts/hu.texts';
import { it } from './texts/it.texts';
import { ja } from './texts/ja.texts';
import { ko } from './texts/ko.texts';
import { lt } from './texts/lt.texts';
import { nl } from './texts/nl.texts';
import { no } from './texts/no.texts';
import { pl } from './texts/pl.texts';
import { pt } from './texts/pt.texts';
import { ru } from './texts/ru.texts';
import { sv } from './texts/sv.texts';
import { tr } from './texts/tr.texts';
import { uk } from './texts/uk.texts';
import { zh } from './texts/zh.texts';

// The respondent page's own words, in the form's language (settings.language,
// else the form's language): one data file per language under texts/, one for
// every language Typeform's `settings.language` accepts. `{n}`, `{total}`,
// `{label}`, `{name}`, `{amount}` and `{site}` stand for values. Each language
// names every text (no English left in a translated page): the type says so,
// and page-texts.spec checks the placeholders.
export interface PageTexts {
  start: string;
  ok: string;
  submit: string;
  continue: string;
  back: string;
  next: string;
  pressEnter: string;
  required: string;
  invalidEmail: string;
  invalidUrl: string;
  invalidPhone: string;
  invalidDate: string;
  invalidNumber: string;
  tooLong: string;
  atLeast: string;
  atMost: string;
  pickAtLeast: string;
  pickAtMost: string;
  acceptTerms: string;
  yes: string;
  no: string;
  accept: string;
  decline: string;
  other: string;
  choose: string;
  typeHere: string;
  minutes: string;
  submissions: string;
  answered: string;
  percentAnswered: string;
  submitting: string;
  submitFailed: string;
  retry: string;
  again: string;
  notFound: string;
  needsScript: string;
  moveUp: string;
  moveDown: string;
  payerName: string;
  amountDue: string;
  notCharged: string;
  bookingUrl: string;
  bookTime: string;
  bookingHint: string;
  rankedAt: string;
  chooseFile: string;
  uploading: string;
  uploaded: string;
  uploadFailed: string;
  fileTooLarge: string;
  watchVideo: string;
  newTab: string;
  recordVideo: string;
  recordAudio: string;
  stopRecording: string;
  recording: string;
}

export type FormLanguage = (typeof languages)[number];

// Each language's texts, its BCP 47 tag for `<html lang>` and, for Arabic and
// Hebrew, its right-to-left direction: Typeform's codes are its own where they
// are not ISO 639-1 (`ch` is simplified Chinese, `zh` traditional, `di`
// German in the informal "du").
export const pageLanguages: Record<FormLanguage, { tag: string; texts: PageTexts; rtl?: true }> = {
  en: { tag: 'en', texts: en },
  es: { tag: 'es', texts: es },
  ca: { tag: 'ca', texts: ca },
  fr: { tag: 'fr', texts: fr },
  de: { tag: 'de', texts: de },
  ru: { tag: 'ru', texts: ru },
  it: { tag: 'it', texts: it },
  da: { tag: 'da', texts: da },
  pt: { tag: 'pt', texts: pt },
  ch: { tag: 'zh-Hans', texts: ch },
  zh: { tag: 'zh-Hant', texts: zh },
  nl: { tag: 'nl', texts: nl },
  no: { tag: 'no', texts: no },
  uk: { tag: 'uk', texts: uk },
  ja: { tag: 'ja', texts: ja },
  ko: { tag: 'ko', texts: ko },
  hr: { tag: 'hr', texts: hr },
  fi: { tag: 'fi', texts: fi },
  sv: { tag: 'sv', texts: sv },
  pl: { tag: 'pl', texts: pl },
  el: { tag: 'el', texts: el },
  hu: { tag: 'hu', texts: hu },
  tr: { tag: 'tr', texts: tr },
  cs: { tag: 'cs', texts: cs },
  et: { tag: 'et', texts: et },
  di: { tag: 'de', texts: di },
  ar: { tag: 'ar', texts: ar, rtl: true },
  he: { tag: 'he', texts: he, rtl: true },
  lt: { tag: 'lt', texts: lt },
};

function known(language: string | undefined): FormLanguage | undefined {
  return language !== undefined && Object.hasOwn(pageLanguages, language)
    ? (language as FormLanguage)
    : undefined;
}

/** The page's texts in the language; a language the page does not know reads English. */
export function pageTexts(language: string | undefined): PageTexts {
  return pageLanguages[known(language) ?? 'en'].texts;
}

/** The language as `<html lang>` names it (BCP 47). */
export function pageLanguageTag(language: string | undefined): string {
  return pageLanguages[known(language) ?? 'en'].tag;
}

/** The page's direction in the language: `rtl` for Arabic and Hebrew. */
export function pageDirection(language: string | undefined): 'ltr' | 'rtl' {
  return pageLanguages[known(language) ?? 'en'].rtl ? 'rtl' : 'ltr';
}
