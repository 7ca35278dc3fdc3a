import type { GatewayConfig } from '@formline/app-config';

// The settings the HTTP edge reads: rate limits, failed-authentication limits,
// the read cache and the upload budgets. An app that serves the API the way the
// gateway does (its config parsed from the same variables in libs/app-config)
// provides its config under this token.
export type HttpEdgeConfig = Pick<
  GatewayConfig,
  | 'RATE_LIMIT_REQUESTS'
  | 'RATE_LIMIT_WINDOW_MS'
  | 'AUTH_FAILURE_CACHE_MS'
  | 'AUTH_FAILURE_RATE_LIMIT_PER_ADDRESS'
  | 'AUTH_FAILURE_RATE_LIMIT_WINDOW_MS'
  | 'LOGIN_RATE_LIMIT_ATTEMPTS'
  | 'LOGIN_RATE_LIMIT_ADDRESS_ATTEMPTS'
  | 'LOGIN_RATE_LIMIT_WINDOW_MS'
  | 'PASSWORD_CHECKS_PER_EMAIL'
  | 'PASSWORD_CHECKS_PER_ADDRESS'
  | 'PASSWORD_CHECKS_WINDOW_MS'
  | 'SUBMISSION_RATE_LIMIT_PER_ADDRESS'
  | 'SUBMISSION_RATE_LIMIT_PER_FORM'
  | 'SUBMISSION_RATE_LIMIT_WINDOW_MS'
  | 'READ_CACHE_TTL_MS'
  | 'READ_CACHE_MAX_ENTRIES'
  | 'FILE_MAX_BYTES'
  | 'UPLOAD_BUDGET_WINDOW_MS'
  | 'UPLOAD_BYTES_PER_ADDRESS'
  | 'UPLOAD_FILES_PER_ADDRESS'
  | 'UPLOAD_BYTES_PER_FORM'
  | 'UPLOAD_FILES_PER_FORM'
  | 'UPLOAD_BYTES_PER_ACCOUNT'
  | 'UPLOAD_FILES_PER_ACCOUNT'
>;

export const HTTP_EDGE_CONFIG = Symbol('HTTP_EDGE_CONFIG');
