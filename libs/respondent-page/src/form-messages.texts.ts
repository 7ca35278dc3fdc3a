import type { FormMessageKey } from '@formline/contracts';
import type { PageTexts } from '@formline/form-logic';

// The page's own words as the form's messages (PUT /forms/{id}/messages)
// override them, where Typeform's page uses those messages. Typeform's
// placeholders ({{field:max_length}}, {{progress:step}}, ...) become the
// page's own ({n}, {total}); the texts stay text (never HTML).
const overrides: Array<[FormMessageKey, keyof PageTexts, Array<[string, string]>?]> = [
  ['label.button.ok', 'ok'],
  ['label.button.submit', 'submit'],
  ['label.buttonNoAnswer.default', 'continue'],
  ['label.error.required', 'required'],
  ['label.error.emailAddress', 'invalidEmail'],
  ['label.error.url', 'invalidUrl'],
  ['label.error.mustAccept', 'acceptTerms'],
  ['label.error.maxLength', 'tooLong', [['{{field:max_length}}', '{n}']]],
  ['label.error.minValue', 'atLeast', [['{{field:min}}', '{n}']]],
  ['label.error.maxValue', 'atMost', [['{{field:max}}', '{n}']]],
  ['label.error.server', 'submitFailed'],
  ['label.yes.default', 'yes'],
  ['label.no.default', 'no'],
  ['block.legal.accept', 'accept'],
  ['block.legal.reject', 'decline'],
  ['block.multipleChoice.other', 'other'],
  ['block.dropdown.placeholder', 'choose'],
  ['block.shortText.placeholder', 'typeHere'],
  ['block.fileUpload.choose', 'chooseFile'],
  ['label.error.sizeLimit', 'fileTooLarge'],
  ['label.progress.percent', 'percentAnswered', [['{{progress:percent}}', '{n}']]],
  [
    'label.progress.proportion',
    'answered',
    [
      ['{{progress:step}}', '{n}'],
      ['{{progress:total}}', '{total}'],
    ],
  ],
];

export function withFormMessages(texts: PageTexts, messages: Record<string, string> | undefined): PageTexts {
  if (!messages) return texts;
  const result = { ...texts };
  for (const [key, text, placeholders = []] of overrides) {
    const message = Object.hasOwn(messages, key) ? messages[key] : undefined;
    if (typeof message !== 'string') continue;
    result[text] = placeholders.reduce((value, [from, to]) => value.split(from).join(to), message);
  }
  return result;
}
