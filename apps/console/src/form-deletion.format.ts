// What deleting a form removes, said before it happens, as the data lifecycle
// (docs/data-lifecycle.md, "What deletes what") has it: the definition at
// once, and in the form's region its responses with their uploads, its
// webhooks with their delivery logs; the insights are counted from the
// responses, so they go too. What receivers were already sent is theirs.

/** The question's subject: the form's title, or what stands for none. */
export function formDeletionQuestion(title: string): string {
  return `Delete the form “${title.trim() || 'Untitled form'}”?`;
}

/**
 * What goes, with the number of responses when the API gave it (every
 * response, finished or not); undefined: the count could not be read.
 */
export function formDeletionInWords(responses: number | undefined): string {
  const answers =
    responses === undefined
      ? 'all its responses, finished or not, with the files respondents uploaded'
      : responses === 0
        ? 'its responses (it has none yet)'
        : `its ${responses.toLocaleString('en')} ${responses === 1 ? 'response' : 'responses'}, finished or not, with the files respondents uploaded`;
  return (
    `Deleting it removes, for good: the form and its questions; ${answers}; ` +
    'its results and insights; its webhooks and their delivery logs. ' +
    'Its share link stops working at once. Webhook deliveries already sent stay with their receivers.'
  );
}
