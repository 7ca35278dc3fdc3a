// Every error code the service can answer with, in one place. Codes follow the
// Typeform API's style (upper snake case) so that clients written for it can
// branch on them unchanged. Never rename a code: clients depend on it.
export enum ErrorCode {
  AuthenticationFailed = 'AUTHENTICATION_FAILED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  FormNotFound = 'FORM_NOT_FOUND',
  WorkspaceNotFound = 'WORKSPACE_NOT_FOUND',
  ValidationError = 'VALIDATION_ERROR',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  Conflict = 'CONFLICT',
  PreconditionFailed = 'PRECONDITION_FAILED',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  InternalError = 'INTERNAL_ERROR',
}

// The one mapping from a domain error code to the HTTP status the gateway answers with.
export const httpStatusByCode: Record<ErrorCode, number> = {
  [ErrorCode.AuthenticationFailed]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.FormNotFound]: 404,
  [ErrorCode.WorkspaceNotFound]: 404,
  [ErrorCode.ValidationError]: 400,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.PreconditionFailed]: 412,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.InternalError]: 500,
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.values<string>(ErrorCode).includes(value);
}
