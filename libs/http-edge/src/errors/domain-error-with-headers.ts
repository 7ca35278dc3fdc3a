import { DomainError, type ErrorCode } from '@formline/errors';

// A domain error whose HTTP answer needs headers besides the body:
// WWW-Authenticate on 401 and 403, Retry-After on 429. The gateway's filter sets them.
export class DomainErrorWithHeaders extends DomainError {
  constructor(
    code: ErrorCode,
    description: string,
    readonly headers: Record<string, string>,
  ) {
    super(code, description);
  }

  static from(error: DomainError, headers: Record<string, string>): DomainErrorWithHeaders {
    return new DomainErrorWithHeaders(error.code, error.description, headers);
  }
}
