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
// An error body stays small whatever the input: a caller sending 10,000 bad
// items gets the first details, not a reply too large to travel over NATS;
// texts that echo caller input (a property name) are cut short.
const maxDetails = 50;
const maxDetailText = 300;

export class DomainError extends Error {
  readonly details?: ErrorDetail[];

  constructor(
    readonly code: ErrorCode,
    readonly description: string,
    details?: ErrorDetail[],
  ) {
    super(`${code}: ${description}`);
    this.name = 'DomainError';
    this.details = details?.slice(0, maxDetails).map((detail) => ({
      code: cut(detail.code),
      description: cut(detail.description),
      field: cut(detail.field),
      in: detail.in,
    }));
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

function cut(text: string): string {
  if (text.length <= maxDetailText) return text;
  // Never end on half of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[maxDetailText - 1]) ? maxDetailText - 1 : maxDetailText;
  return `${text.slice(0, end)}…`;
}
