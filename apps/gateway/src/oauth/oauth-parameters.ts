import { isScope, type Scope } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';

// OAuth parameters arrive form-encoded (or as JSON, or in the query string).
// Each is a single string: RFC 6749 3.1 and 3.2 forbid repeating one.
export type OAuthParameters = Record<string, unknown>;

export function optionalParameter(params: OAuthParameters, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new DomainError(ErrorCode.InvalidRequest, `The parameter ${name} must be given once, as a string.`);
  }
  return value;
}

export function requiredParameter(params: OAuthParameters, name: string): string {
  const value = optionalParameter(params, name);
  if (value === undefined)
    throw new DomainError(ErrorCode.InvalidRequest, `The parameter ${name} is missing.`);
  return value;
}

export function asParameters(value: unknown): OAuthParameters {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as OAuthParameters)
    : {};
}

// Space-separated scope names (RFC 6749 3.3); an unknown one is invalid_scope.
export function parseScopes(value: string): Scope[] {
  const names = [...new Set(value.split(' ').filter(Boolean))];
  const unknown = names.filter((name) => !isScope(name));
  if (!names.length || unknown.length) {
    throw new DomainError(
      ErrorCode.InvalidScope,
      unknown.length ? `Unknown scopes: ${unknown.join(' ')}.` : 'The scope parameter is empty.',
    );
  }
  return names as Scope[];
}
