import { pageTexts } from './page-texts';
import { withFormMessages } from './form-messages.texts';

describe("the page's texts with the form's messages", () => {
  const en = pageTexts('en');

  it('reads the defaults when the form has no messages', () => {
    expect(withFormMessages(en, undefined)).toEqual(en);
  });

  it("uses the form's words where Typeform's page does, with the page's placeholders", () => {
    const texts = withFormMessages(en, {
      'label.button.ok': 'Next',
      'label.error.maxLength': 'No more than {{field:max_length}} letters',
      'label.progress.proportion': '{{progress:step}}/{{progress:total}}',
      'label.hint.key': 'Key', // no counterpart on the page: ignored
      'block.fileUpload.choose': 'Pick your CV',
    });
    expect(texts).toEqual({
      ...en,
      ok: 'Next',
      chooseFile: 'Pick your CV',
      tooLong: 'No more than {n} letters',
      answered: '{n}/{total}',
    });
  });

  it('reads only the messages of the form itself, never inherited keys', () => {
    const inherited = Object.create({ 'label.button.ok': 'from a prototype' }) as Record<string, string>;
    expect(withFormMessages(en, inherited).ok).toBe(en.ok);
  });
});
