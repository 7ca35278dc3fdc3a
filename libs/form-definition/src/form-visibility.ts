import type { FormDefinition } from './form-definition';

// Whether respondents without a token reach a form (its page, its
// submissions, its files): unless its settings say `is_public: false`, as on
// Typeform, where forms are public by default. Decided here only; the forms
// service says it with every form it locates, and the gateway enforces it.
export function isPublicForm(definition: Pick<FormDefinition, 'settings'>): boolean {
  return definition.settings.is_public !== false;
}
