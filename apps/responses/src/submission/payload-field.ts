import type { Field } from '@formline/form-definition';

// A question as Typeform's `form_response` payload describes it in
// `definition.fields[]`: the choice settings at the top level, spelled as the
// payload spells them (`allow_multiple_selections`, plural), and the choices
// as {id, ref, label}; the rest of the form model's properties stay out.
export interface PayloadField {
  id: string;
  title: string;
  type: string;
  ref: string;
  allow_multiple_selections: boolean;
  allow_other_choice: boolean;
  choices?: Array<{ id: string; ref: string; label: string }>;
}

export function payloadField(field: Field): PayloadField {
  const { properties } = field;
  return {
    id: field.id,
    title: field.title,
    type: field.type,
    ref: field.ref,
    allow_multiple_selections: properties.allow_multiple_selection === true,
    allow_other_choice: properties.allow_other_choice === true,
    ...(properties.choices
      ? { choices: properties.choices.map(({ id, ref, label }) => ({ id, ref, label })) }
      : {}),
  };
}
