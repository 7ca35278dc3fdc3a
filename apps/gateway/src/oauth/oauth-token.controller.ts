import { Body, Controller, Header, Headers, HttpCode, Post } from '@nestjs/common';
import { issueOAuthToken, revokeOAuthToken } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { codeChallengeOf, generateToken, hashAccessToken, isCodeVerifier } from '@formline/tokens';
import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { Public, ApiOperation, RequestId } from '@formline/http-edge';
import { type ClientCredentials, clientCredentialsFrom } from './client-credentials';
import {
  asParameters,
  type OAuthParameters,
  optionalParameter,
  parseScopes,
  requiredParameter,
} from './oauth-parameters';

// RFC 6749 5.1, as Typeform answers it.
const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.int().describe('Seconds the access token lives.'),
  refresh_token: z.string().optional(),
  scope: z.string().describe('The granted scopes, space separated.'),
});
export type TokenResponse = z.output<typeof tokenResponseSchema>;

// The parameters the endpoints read (oauth-parameters.ts checks each one as it
// reads it): for the API document. The client authenticates with HTTP Basic
// (client_id and client_secret) or with client_id and client_secret here.
const clientParameters = {
  client_id: boundedText(inputLimits.id).optional(),
  client_secret: boundedText(inputLimits.name).optional(),
};
const tokenRequestSchema = z.object({
  grant_type: z.enum(['authorization_code', 'refresh_token']),
  code: boundedText(inputLimits.name)
    .optional()
    .describe('authorization_code: the code the redirect brought.'),
  redirect_uri: boundedText(inputLimits.url)
    .optional()
    .describe('authorization_code: the redirect_uri of the authorization.'),
  code_verifier: boundedText(inputLimits.name)
    .optional()
    .describe('authorization_code: the PKCE verifier, if a challenge was sent.'),
  refresh_token: boundedText(inputLimits.name).optional().describe('refresh_token: the refresh token.'),
  scope: boundedText(inputLimits.text)
    .optional()
    .describe('refresh_token: fewer scopes than granted, space separated.'),
  ...clientParameters,
});
const revokeRequestSchema = z.object({
  token: boundedText(inputLimits.name).describe('An access or refresh token of this client.'),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  ...clientParameters,
});
const oauthBodyTypes = ['application/x-www-form-urlencoded', 'application/json'];
const clientAuthentication =
  'The client authenticates with HTTP Basic (client_id, client_secret) or with both in the body; a public client (the console) sends its client_id alone and must use PKCE.';

// The token endpoint (authorization_code and refresh_token grants) and the
// revocation endpoint (RFC 7009), on both base addresses. Clients authenticate
// themselves with their secret, so these routes take no bearer token. New
// tokens are made here and only their hashes go to the global service.
@Controller('oauth')
export class OAuthTokenController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'OAuth token endpoint',
    description: `Exchanges an authorization code, or a refresh token, for tokens (RFC 6749). ${clientAuthentication}`,
    security: [],
    body: tokenRequestSchema,
    bodyContentTypes: oauthBodyTypes,
    responses: {
      200: {
        description: 'The new tokens.',
        body: tokenResponseSchema,
        headers: { 'Cache-Control': 'no-store' },
      },
    },
    errors: [
      ErrorCode.InvalidRequest,
      ErrorCode.InvalidClient,
      ErrorCode.InvalidGrant,
      ErrorCode.UnsupportedGrantType,
      ErrorCode.InvalidScope,
    ],
  })
  async token(
    @RequestId() requestId: string,
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<TokenResponse> {
    const params = asParameters(body);
    const grantType = requiredParameter(params, 'grant_type');
    const client = clientCredentialsFrom(authorization, params);
    const clientAuthentication = clientAuthenticationOf(client);
    const accessToken = generateToken('oauthAccess');
    const refreshToken = generateToken('oauthRefresh');
    const newTokens = {
      newAccessTokenHash: hashAccessToken(accessToken),
      newRefreshTokenHash: hashAccessToken(refreshToken),
    };
    const issued = await this.rpc.request(
      issueOAuthToken,
      {
        ...grantOf(grantType, params),
        ...clientAuthentication,
        ...newTokens,
      },
      requestId,
    );
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
  @ApiOperation({
    summary: 'OAuth token revocation',
    description: `Revokes an access or refresh token and its authorization (RFC 7009); an unknown token is no error. ${clientAuthentication}`,
    security: [],
    body: revokeRequestSchema,
    bodyContentTypes: oauthBodyTypes,
    responses: { 200: { description: 'Revoked.', body: z.object({}) } },
    errors: [ErrorCode.InvalidRequest, ErrorCode.InvalidClient],
  })
  async revoke(
    @RequestId() requestId: string,
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<Record<string, never>> {
    const params = asParameters(body);
    const client = clientCredentialsFrom(authorization, params);
    await this.rpc.request(
      revokeOAuthToken,
      {
        ...clientAuthenticationOf(client),
        tokenHash: hashAccessToken(requiredParameter(params, 'token')),
      },
      requestId,
    );
    return {};
  }
}

// Only the secret's hash goes to the global service; a public client has none.
function clientAuthenticationOf(client: ClientCredentials) {
  return {
    clientId: client.clientId,
    clientSecretHash: client.clientSecret === undefined ? undefined : hashAccessToken(client.clientSecret),
  };
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
