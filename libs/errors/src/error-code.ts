// Every error code the service can answer with, in one place. Codes follow the
// Typeform API's style (upper snake case) so that clients written for it can
// branch on them unchanged. Never rename a code: clients depend on it.
export enum ErrorCode {
  // No credentials at all (or wrong email and password on owner routes).
  AuthenticationFailed = 'AUTHENTICATION_FAILED',
  InvalidToken = 'INVALID_TOKEN',
  TokenExpired = 'TOKEN_EXPIRED',
  TokenRevoked = 'TOKEN_REVOKED',
  InsufficientScope = 'INSUFFICIENT_SCOPE',
  // The resource is shared with the caller, but its role there does not allow this.
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  FormNotFound = 'FORM_NOT_FOUND',
  WorkspaceNotFound = 'WORKSPACE_NOT_FOUND',
  ThemeNotFound = 'THEME_NOT_FOUND',
  ImageNotFound = 'IMAGE_NOT_FOUND',
  ValidationError = 'VALIDATION_ERROR',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  // An upload without a Content-Length: its size is reserved before it is read.
  LengthRequired = 'LENGTH_REQUIRED',
  Conflict = 'CONFLICT',
  PreconditionFailed = 'PRECONDITION_FAILED',
  TokenNotFound = 'TOKEN_NOT_FOUND',
  ApplicationNotFound = 'APPLICATION_NOT_FOUND',
  RateLimited = 'RATE_LIMITED',
  WrongRegion = 'WRONG_REGION',
  IdempotencyKeyReused = 'IDEMPOTENCY_KEY_REUSED',
  // The OAuth token and revocation endpoints' errors (RFC 6749 5.2).
  InvalidRequest = 'INVALID_REQUEST',
  InvalidClient = 'INVALID_CLIENT',
  InvalidGrant = 'INVALID_GRANT',
  UnsupportedGrantType = 'UNSUPPORTED_GRANT_TYPE',
  InvalidScope = 'INVALID_SCOPE',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  InternalError = 'INTERNAL_ERROR',
  // Hostile or broken HTTP: a body in another charset, headers over the limit,
  // a request that took too long to arrive, an answer too large to send.
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  HeadersTooLarge = 'HEADERS_TOO_LARGE',
  RequestTimeout = 'REQUEST_TIMEOUT',
  ResponseTooLarge = 'RESPONSE_TOO_LARGE',
}

// The one mapping from a domain error code to the HTTP status the gateway answers with.
export const httpStatusByCode: Record<ErrorCode, number> = {
  [ErrorCode.AuthenticationFailed]: 401,
  [ErrorCode.InvalidToken]: 401,
  [ErrorCode.TokenExpired]: 401,
  [ErrorCode.TokenRevoked]: 401,
  [ErrorCode.InsufficientScope]: 403,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.FormNotFound]: 404,
  [ErrorCode.WorkspaceNotFound]: 404,
  [ErrorCode.ThemeNotFound]: 404,
  [ErrorCode.ImageNotFound]: 404,
  [ErrorCode.ValidationError]: 400,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.LengthRequired]: 411,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.PreconditionFailed]: 412,
  [ErrorCode.TokenNotFound]: 404,
  [ErrorCode.ApplicationNotFound]: 404,
  [ErrorCode.RateLimited]: 429,
  // Misdirected Request: this region does not hold this form's responses.
  [ErrorCode.WrongRegion]: 421,
  [ErrorCode.IdempotencyKeyReused]: 422,
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.InvalidClient]: 401,
  [ErrorCode.InvalidGrant]: 400,
  [ErrorCode.UnsupportedGrantType]: 400,
  [ErrorCode.InvalidScope]: 400,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.InternalError]: 500,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.HeadersTooLarge]: 431,
  [ErrorCode.RequestTimeout]: 408,
  // The request is fine, but what it asks for does not fit one answer (ask
  // for a smaller page): the caller can act on it, so not a 5xx.
  [ErrorCode.ResponseTooLarge]: 422,
};

// The `error` member that OAuth clients read (RFC 6749 5.2), for the codes the
// token and revocation endpoints answer with; the body carries it beside `code`.
export const oauthErrorByCode: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.InvalidRequest]: 'invalid_request',
  [ErrorCode.InvalidClient]: 'invalid_client',
  [ErrorCode.InvalidGrant]: 'invalid_grant',
  [ErrorCode.UnsupportedGrantType]: 'unsupported_grant_type',
  [ErrorCode.InvalidScope]: 'invalid_scope',
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.values<string>(ErrorCode).includes(value);
}
