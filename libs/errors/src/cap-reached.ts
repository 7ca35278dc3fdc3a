import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';

// A count that an account or a form may hold is reached (webhooks of a form,
// an account's live tokens or OAuth applications): 409 CONFLICT, not 429,
// since waiting does not help and deleting one does. `detailCode` names the
// cap (TOO_MANY_WEBHOOKS), `description` says what to do, `bound` the cap.
export function capReachedError(detailCode: string, description: string, bound: string): DomainError {
  return new DomainError(ErrorCode.Conflict, description, [
    { code: detailCode, description: bound, field: '', in: 'body' },
  ]);
}
