import { type RpcClient } from '@formline/messaging';
import { type Scope, validateAuthorization } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { isCodeChallenge } from '@formline/tokens';
import { type OAuthParameters, optionalParameter, parseScopes } from './oauth-parameters';

// An authorization request (RFC 6749 4.1.1, RFC 7636 4.3) that passed every check.
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: Scope[];
  state?: string;
  codeChallenge?: string;
  applicationName: string;
  // The parameters as received, carried through the consent form unchanged.
  parameters: Record<string, string>;
}

// Refused before the redirect URI is known to be the client's: say so to the
// person, never redirect (RFC 6749 4.1.2.1), or codes could be sent anywhere.
export class AuthorizationPageError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

// Refused once the redirect URI is trusted: the client learns why, there.
export class AuthorizationRedirectError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly state: string | undefined,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

const echoed = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

export async function readAuthorizationRequest(
  rpc: RpcClient,
  params: OAuthParameters,
  requestId: string,
): Promise<AuthorizationRequest> {
  let clientId: string | undefined;
  let redirectUri: string | undefined;
  try {
    clientId = optionalParameter(params, 'client_id');
    redirectUri = optionalParameter(params, 'redirect_uri');
  } catch (error) {
    throw pageErrorFrom(error);
  }
  if (!clientId) throw new AuthorizationPageError(400, 'The request names no application (client_id).');
  if (!redirectUri) throw new AuthorizationPageError(400, 'The request has no redirect_uri.');
  const { applicationName, publicClient } = await rpc
    .request(validateAuthorization, { clientId, redirectUri }, requestId)
    .catch((error: unknown) => {
      throw pageErrorFrom(error);
    });

  let state: string | undefined;
  try {
    state = optionalParameter(params, 'state');
  } catch {
    // A repeated state cannot be echoed faithfully: refuse without one.
  }
  const refuse = (error: string, description: string) =>
    new AuthorizationRedirectError(redirectUri, state, error, description);
  try {
    const responseType = optionalParameter(params, 'response_type');
    if (responseType !== 'code') throw refuse('unsupported_response_type', 'response_type must be code.');
    const scopes = parseScopes(optionalParameter(params, 'scope') ?? '');
    const codeChallenge = optionalParameter(params, 'code_challenge');
    const method = optionalParameter(params, 'code_challenge_method');
    if (codeChallenge !== undefined || method !== undefined) {
      if (method !== 'S256') throw refuse('invalid_request', 'code_challenge_method must be S256.');
      if (!codeChallenge || !isCodeChallenge(codeChallenge)) {
        throw refuse('invalid_request', 'code_challenge must be the base64url SHA-256 of the code_verifier.');
      }
    }
    // A public client (the console) is bound to its code by PKCE alone, and a
    // browser keeps no refresh token: refused before anyone types a password.
    if (publicClient && !codeChallenge) {
      throw refuse('invalid_request', 'This application must use PKCE (code_challenge with S256).');
    }
    if (publicClient && scopes.includes('offline')) {
      throw refuse('invalid_scope', 'This application gets no refresh token: offline cannot be granted.');
    }
    const parameters: Record<string, string> = {};
    for (const name of echoed) {
      const value = optionalParameter(params, name);
      if (value !== undefined) parameters[name] = value;
    }
    return { clientId, redirectUri, scopes, state, codeChallenge, applicationName, parameters };
  } catch (error) {
    if (error instanceof DomainError) {
      throw refuse(
        error.code === ErrorCode.InvalidScope ? 'invalid_scope' : 'invalid_request',
        error.description,
      );
    }
    throw error;
  }
}

// Errors of the client's identity become a page; the service being away stays a 503.
export function pageErrorFrom(error: unknown): unknown {
  if (
    error instanceof DomainError &&
    [
      ErrorCode.InvalidClient,
      ErrorCode.InvalidRequest,
      ErrorCode.InvalidScope,
      ErrorCode.ValidationError,
    ].includes(error.code)
  ) {
    return new AuthorizationPageError(400, error.description);
  }
  return error;
}
