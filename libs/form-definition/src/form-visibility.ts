import type { FormDefinition } from './form-definition';

// Whether respondents without a token reach a form (its page, its
// submissions, its files): unless its settings say `is_public: false`, as on
// Typeform, where forms are public by default; a private form is answered only
// with a token of its own account. Decided here only: the global service says
// whether a form is public with every form it locates, the gateway asks
// mayRespond for the page (no token there) and for submissions, saves and uploads.
export function isPublicForm(definition: Pick<FormDefinition, 'settings'>): boolean {
  return definition.settings.is_public !== false;
}

/** May this caller (its account, or none: a respondent without a token) answer the form? */
export function mayRespond(
  form: { isPublic: boolean; accountId: string },
  callerAccountId: string | undefined,
): boolean {
  return form.isPublic || (callerAccountId !== undefined && callerAccountId === form.accountId);
}
