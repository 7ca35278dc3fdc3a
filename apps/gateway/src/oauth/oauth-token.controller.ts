import { Body, Controller, Header, Headers, HttpCode, Post } from '@nestjs/common';
import { issueOAuthToken, revokeOAuthToken } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { codeChallengeOf, generateToken, hashAccessToken, isCodeVerifier } from '@formline/tokens';
import { Public } from '../auth/public.decorator';
import { clientCredentialsFrom } from './client-credentials';
import {
  asParameters,
  type OAuthParameters,
  optionalParameter,
  parseScopes,
  requiredParameter,
} from './oauth-parameters';

// RFC 6749 5.1, as Typeform answers it.
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

// The token endpoint (authorization_code and refresh_token grants) and the
// revocation endpoint (RFC 7009), on both base addresses. Clients authenticate
// themselves with their secret, so these routes take no bearer token. New
// tokens are made here and only their hashes go to the forms service.
@Controller('oauth')
export class OAuthTokenController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  async token(
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<TokenResponse> {
    const params = asParameters(body);
    const grantType = requiredParameter(params, 'grant_type');
    const client = clientCredentialsFrom(authorization, params);
    const clientAuthentication = {
      clientId: client.clientId,
      clientSecretHash: hashAccessToken(client.clientSecret),
    };
    const accessToken = generateToken('oauthAccess');
    const refreshToken = generateToken('oauthRefresh');
    const newTokens = {
      newAccessTokenHash: hashAccessToken(accessToken),
      newRefreshTokenHash: hashAccessToken(refreshToken),
    };
    const issued = await this.rpc.request(issueOAuthToken, {
      ...grantOf(grantType, params),
      ...clientAuthentication,
      ...newTokens,
    });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: issued.expiresIn,
      ...(issued.refreshTokenIssued ? { refresh_token: refreshToken } : {}),
      scope: issued.scopes.join(' '),
    };
  }

  @Post('revoke')
  @Public()
  @HttpCode(200)
  async revoke(
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<Record<string, never>> {
    const params = asParameters(body);
    const client = clientCredentialsFrom(authorization, params);
    await this.rpc.request(revokeOAuthToken, {
      clientId: client.clientId,
      clientSecretHash: hashAccessToken(client.clientSecret),
      tokenHash: hashAccessToken(requiredParameter(params, 'token')),
    });
    return {};
  }
}

// What each grant brings to the token request (RFC 6749 4.1.3 and 6), with its
// secrets hashed and the PKCE verifier turned into the challenge it must match.
function grantOf(grantType: string, params: OAuthParameters) {
  switch (grantType) {
    case 'authorization_code': {
      const verifier = optionalParameter(params, 'code_verifier');
      if (verifier !== undefined && !isCodeVerifier(verifier)) {
        throw new DomainError(
          ErrorCode.InvalidRequest,
          'code_verifier must be 43 to 128 unreserved characters.',
        );
      }
      return {
        grantType,
        codeHash: hashAccessToken(requiredParameter(params, 'code')),
        redirectUri: requiredParameter(params, 'redirect_uri'),
        codeVerifierChallenge: verifier === undefined ? undefined : codeChallengeOf(verifier),
      } as const;
    }
    case 'refresh_token': {
      const scope = optionalParameter(params, 'scope');
      return {
        grantType,
        refreshTokenHash: hashAccessToken(requiredParameter(params, 'refresh_token')),
        scopes: scope === undefined ? undefined : parseScopes(scope),
      } as const;
    }
    default:
      throw new DomainError(
        ErrorCode.UnsupportedGrantType,
        'grant_type must be authorization_code or refresh_token.',
      );
  }
}
