import type { languages } from '@formline/form-definition';
import type { PageTexts } from '@formline/form-logic';
import ar from './texts/ar.json';
import ca from './texts/ca.json';
import ch from './texts/ch.json';
import cs from './texts/cs.json';
import da from './texts/da.json';
import de from './texts/de.json';
import di from './texts/di.json';
import el from './texts/el.json';
import en from './texts/en.json';
import es from './texts/es.json';
import et from './texts/et.json';
import fi from './texts/fi.json';
import fr from './texts/fr.json';
import he from './texts/he.json';
import hr from './texts/hr.json';
import hu from './texts/hu.json';
import it from './texts/it.json';
import ja from './texts/ja.json';
import ko from './texts/ko.json';
import lt from './texts/lt.json';
import nl from './texts/nl.json';
import no from './texts/no.json';
import pl from './texts/pl.json';
import pt from './texts/pt.json';
import ru from './texts/ru.json';
import sv from './texts/sv.json';
import tr from './texts/tr.json';
import uk from './texts/uk.json';
import zh from './texts/zh.json';

// The respondent page's own words in the form's language (settings.language,
// else the form's language): one data file per language under texts/, one for
// every language Typeform's `settings.language` accepts. Each language names
// every text (no English left in a translated page): the table's type says so
// when the files are read in, and page-texts.spec checks the placeholders.
export type { PageTexts };

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
  // German, in the formal "Sie" (`di` is the informal "du").
  de: { tag: 'de', texts: de },
  ru: { tag: 'ru', texts: ru },
  it: { tag: 'it', texts: it },
  da: { tag: 'da', texts: da },
  pt: { tag: 'pt', texts: pt },
  // Chinese, simplified (Typeform's `ch`).
  ch: { tag: 'zh-Hans', texts: ch },
  // Chinese, traditional (Typeform's `zh`).
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
  // German, in the informal "du".
  di: { tag: 'de', texts: di },
  // Arabic (Modern Standard), laid out right to left.
  ar: { tag: 'ar', texts: ar, rtl: true },
  // Hebrew, laid out right to left.
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
