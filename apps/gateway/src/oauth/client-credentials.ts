import { DomainError, ErrorCode } from '@formline/errors';
import { basicCredentialsFrom } from '@formline/http-edge';
import { type OAuthParameters, optionalParameter } from './oauth-parameters';

export interface ClientCredentials {
  clientId: string;
  /** None for a public client (the console), which sends its client_id alone (RFC 6749 2.3, 3.2.1). */
  clientSecret?: string;
}

// Client authentication at the token and revocation endpoints (RFC 6749
// 2.3.1): HTTP Basic with the form-encoded id and secret, or both in the body
// (what Typeform's documentation shows). One method per request. A client_id
// in the body without a secret names a public client; the global service
// refuses it unless the client is one (a confidential client's secret is
// never optional).
export function clientCredentialsFrom(
  authorization: string | string[] | undefined,
  params: OAuthParameters,
): ClientCredentials {
  const basic = basicCredentialsFrom(authorization);
  const bodyId = optionalParameter(params, 'client_id');
  const bodySecret = optionalParameter(params, 'client_secret');
  if (basic) {
    if (bodySecret) {
      throw new DomainError(ErrorCode.InvalidRequest, 'Use one client authentication method, not two.');
    }
    const clientId = formDecode(basic.user);
    if (bodyId && bodyId !== clientId) {
      throw new DomainError(ErrorCode.InvalidRequest, 'client_id differs from the authenticated client.');
    }
    return { clientId, clientSecret: formDecode(basic.password) };
  }
  if (!bodyId) {
    throw new DomainError(
      ErrorCode.InvalidClient,
      'Client authentication failed: client_id and client_secret.',
    );
  }
  return { clientId: bodyId, clientSecret: bodySecret || undefined };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
