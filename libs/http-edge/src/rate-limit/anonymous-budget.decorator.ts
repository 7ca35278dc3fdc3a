import { SetMetadata } from '@nestjs/common';

export const ANONYMOUS_BUDGET = 'anonymousBudget';

/** The budgets a request without a token counts against (SubmissionThrottle). */
export type AnonymousBudgetName = 'submissions' | 'progress';

// Which of the respondents' budgets an anonymous call of a @ScopeIfAuthenticated
// route counts against (per client address and per form, the form being the
// route's `form_id`). Counted with the access decision, before the body is read:
// a caller over its budget is answered 429 at once, its body never buffered.
export const AnonymousBudget = (budget: AnonymousBudgetName) => SetMetadata(ANONYMOUS_BUDGET, budget);
