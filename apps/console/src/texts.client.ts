import { type Catalog, type ConsoleTexts, englishTexts, ConsoleTexts as Texts } from './console.texts';
import { type ConsoleLanguage, languageChoice } from './console.language';

type Send = (input: string, init: RequestInit) => Promise<Response>;

// A language's texts, downloaded when it is chosen: each language is a file
// of the console's build (`/console/assets/texts-<code>.<hash>.json`, named
// by its content, so kept by the browser for a year), and only the chosen
// one is downloaded; English is in the script. A file that cannot be had
// leaves the console in English rather than without words.
export class TextsClient {
  private readonly loaded = new Map<ConsoleLanguage, Promise<ConsoleTexts>>();

  constructor(
    private readonly send: Send,
    /** The build's file of each language it has complete texts for, English aside. */
    private readonly files: Partial<Record<ConsoleLanguage, string>>,
  ) {}

  /** The languages the console speaks: English and those the build has files for. */
  available(): ReadonlySet<ConsoleLanguage> {
    return new Set<ConsoleLanguage>(['en', ...(Object.keys(this.files) as ConsoleLanguage[])]);
  }

  load(language: ConsoleLanguage): Promise<ConsoleTexts> {
    const file = this.files[language];
    if (language === 'en' || !file) return Promise.resolve(englishTexts);
    let texts = this.loaded.get(language);
    if (!texts) {
      texts = this.fetch(language, file);
      this.loaded.set(language, texts);
    }
    return texts;
  }

  private async fetch(language: ConsoleLanguage, file: string): Promise<ConsoleTexts> {
    try {
      const response = await this.send(`/console/assets/${file}`, {
        headers: { accept: 'application/json' },
        credentials: 'omit',
      });
      const catalog: unknown = response.ok ? await response.json() : undefined;
      if (typeof catalog !== 'object' || catalog === null || Array.isArray(catalog)) {
        this.loaded.delete(language);
        return englishTexts;
      }
      return new Texts(languageChoice(language), catalog as Catalog);
    } catch {
      this.loaded.delete(language);
      return englishTexts;
    }
  }
}
