import type { CompositeFieldType, Field } from '@formline/form-definition';

// How a form splits into the blocks a respondent sees one at a time. Here, not
// in form-definition, because the page's script is bundled from this library
// and may import no runtime code of form-definition (it pulls in zod).

const composite: ReadonlySet<string> = new Set<CompositeFieldType>(['matrix', 'contact_info', 'address']);

// Whether the block is answered on one screen through its inner fields (the
// rows of a matrix, the lines of an address), each inner field answered on its own.
export function isComposite(field: Field): boolean {
  return composite.has(field.type);
}

// The blocks a respondent goes through one at a time, in form order: every
// top-level field, a group followed by its questions. A composite block is
// one block: its inner fields are answered on its screen.
export function respondentBlocks(fields: readonly Field[]): Field[] {
  return fields.flatMap((field) =>
    field.type === 'group' ? [field, ...(field.properties.fields ?? [])] : [field],
  );
}

// The inner fields a composite block is answered through (none for other blocks).
export function innerQuestions(field: Field): Field[] {
  return isComposite(field) ? (field.properties.fields ?? []) : [];
}
