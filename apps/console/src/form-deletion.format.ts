import { type ConsoleTexts, englishTexts } from './console.texts';

// What deleting a form removes, said before it happens, as the data lifecycle
// (docs/data-lifecycle.md, "What deletes what") has it: the definition at
// once, and in the form's region its responses with their uploads, its
// webhooks with their delivery logs; the insights are counted from the
// responses, so they go too. What receivers were already sent is theirs.

/** The question's subject: the form's title, or what stands for none. */
export function formDeletionQuestion(title: string, texts: ConsoleTexts = englishTexts): string {
  return texts.t('deletion.question', { title: title.trim() || texts.t('form.untitled') });
}

/**
 * What goes, with the number of responses when the API gave it (every
 * response, finished or not); undefined: the count could not be read.
 */
export function formDeletionInWords(
  responses: number | undefined,
  texts: ConsoleTexts = englishTexts,
): string {
  const answers =
    responses === undefined
      ? texts.t('deletion.allResponses')
      : responses === 0
        ? texts.t('deletion.noResponses')
        : texts.t('deletion.responses', { count: responses, number: texts.number(responses) });
  return texts.t('deletion.what', { answers });
}
