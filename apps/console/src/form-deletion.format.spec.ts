import { formDeletionInWords, formDeletionQuestion } from './form-deletion.format';

describe('what deleting a form removes, in words', () => {
  it('asks about the form by its title', () => {
    expect(formDeletionQuestion('Team lunch poll')).toBe('Delete the form “Team lunch poll”?');
    expect(formDeletionQuestion(' ')).toBe('Delete the form “Untitled form”?');
  });

  it('says every kind of data that goes, with the number of responses', () => {
    expect(formDeletionInWords(1234)).toBe(
      'Deleting it removes, for good: the form and its questions; its 1,234 responses, finished or not, ' +
        'with the files respondents uploaded; its results and insights; its webhooks and their delivery logs. ' +
        'Its share link stops working at once. Webhook deliveries already sent stay with their receivers.',
    );
    expect(formDeletionInWords(1)).toContain('; its 1 response, finished or not, with the files');
  });

  it('says when there are no responses, and speaks of all of them when the count is unknown', () => {
    expect(formDeletionInWords(0)).toContain('; its responses (it has none yet);');
    expect(formDeletionInWords(undefined)).toContain(
      '; all its responses, finished or not, with the files respondents uploaded;',
    );
  });
});
