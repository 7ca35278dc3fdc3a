import { ErrorCode, isErrorCode } from './error-code';

// One entry of `details`: which input was wrong and why.
export interface ErrorDetail {
  code: string;
  description: string;
  field: string;
  in: 'body' | 'path' | 'query' | 'header';
}

// The documented error body: `{code, description, details?}`.
export interface ErrorBody {
  code: ErrorCode;
  description: string;
  details?: ErrorDetail[];
}

// An error the caller can act on. Thrown anywhere in the services, it crosses
// NATS as its body and the gateway answers with the body and the status of its code.
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly description: string,
    readonly details?: ErrorDetail[],
  ) {
    super(`${code}: ${description}`);
    this.name = 'DomainError';
  }

  toBody(): ErrorBody {
    return this.details?.length
      ? { code: this.code, description: this.description, details: this.details }
      : { code: this.code, description: this.description };
  }

  static fromBody(body: unknown): DomainError | undefined {
    if (typeof body !== 'object' || body === null) return undefined;
    const { code, description, details } = body as Record<string, unknown>;
    if (!isErrorCode(code) || typeof description !== 'string') return undefined;
    return new DomainError(
      code,
      description,
      Array.isArray(details) ? (details as ErrorDetail[]) : undefined,
    );
  }
}
