import type { Field } from '@formline/form-definition';
import type { AnswerControl } from './answer.control';
import { booleanGroupControl } from './boolean-group.control';
import { bookingLinkControl } from './booking-link.control';
import { choiceGroupControl } from './choice-group.control';
import { contactLinesControl } from './contact-lines.control';
import { dropdownControl } from './dropdown.control';
import { el } from './element.builder';
import { fileUploadControl } from './file-upload.control';
import { matrixTableControl } from './matrix-table.control';
import { multiFormatControl } from './multi-format.control';
import { numberInputControl } from './number-input.control';
import type { ControlContext } from './page.context';
import { paymentRecordControl } from './payment-record.control';
import { rankingListControl } from './ranking-list.control';
import { scaleControl } from './scale.control';
import { textInputControl } from './text-input.control';

// The control of each type of question, named by the question's title and
// described by its description and its error (the ids the question screen gives them).
export function questionControl(
  field: Field,
  ids: { labelledBy: string; describedBy: string },
  required: boolean,
  context: ControlContext,
): AnswerControl {
  const { t } = context;
  const saved = context.session.answer(field.ref);
  const aria = {
    'aria-labelledby': ids.labelledBy,
    'aria-describedby': ids.describedBy,
    'aria-required': required ? 'true' : undefined,
    'aria-invalid': 'false',
  };
  const properties = field.properties as Record<string, unknown>;
  const validations = (field.validations ?? {}) as Record<string, number | undefined>;
  const maxlength = validations.max_length ? String(validations.max_length) : undefined;
  const text = (type: string, key: Parameters<typeof textInputControl>[1]['key'], extra = {}) =>
    textInputControl(field, { type, key, aria, texts: t, saved, extra });
  switch (field.type) {
    case 'short_text':
      return text('text', 'text', { maxlength });
    case 'long_text':
      return text('textarea', 'text', { maxlength });
    case 'email':
      return text('email', 'email');
    case 'website':
      return text('url', 'url', { inputmode: 'url' });
    case 'phone_number':
      return text('tel', 'phone_number', { inputmode: 'tel' });
    case 'date':
      return text('date', 'date');
    case 'number':
      return numberInputControl(field, { aria, placeholder: t.typeHere, saved });
    case 'dropdown':
      return dropdownControl(field, { aria, prompt: t.choose, saved });
    case 'picture_choice':
      return choiceGroupControl(field, aria, context, {
        choices: (field.properties.choices ?? []).map((choice) => ({
          ...choice,
          label: choice.label || choice.attachment?.properties?.description || choice.ref,
        })),
        multiple: properties.allow_multiple_selection === true,
        allowOther: properties.allow_other_choice === true,
        pictures: {
          supersized: properties.supersized === true,
          showLabels: properties.show_labels !== false,
        },
      });
    case 'multiple_choice':
      return choiceGroupControl(field, aria, context, {
        choices: field.properties.choices ?? [],
        multiple: properties.allow_multiple_selection === true,
        allowOther: properties.allow_other_choice === true,
      });
    case 'ranking':
      return rankingListControl(field, aria, context);
    case 'matrix':
      return matrixTableControl(field, aria, context);
    case 'contact_info':
    case 'address':
      return contactLinesControl(field, context);
    case 'calendly':
      return bookingLinkControl(field, aria, context);
    case 'payment':
      return paymentRecordControl(field, aria, context);
    case 'file_upload':
      return fileUploadControl(field, { submitUrl: context.submitUrl, aria, saved, texts: t });
    case 'multi_format':
      return multiFormatControl(field, aria, context);
    case 'yes_no':
    case 'legal':
      return booleanGroupControl(field, aria, context);
    case 'rating':
    case 'opinion_scale':
    case 'nps':
      return scaleControl(field, aria, context);
    case 'statement':
    case 'group':
      // Nothing to answer: the block has only its button.
      return { node: el('div', { class: 'answer empty' }), reader: { read: () => undefined } };
  }
}
