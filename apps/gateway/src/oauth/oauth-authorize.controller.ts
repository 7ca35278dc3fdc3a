import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Body, Controller, Get, Headers, HttpCode, Inject, Ip, Post, Query, Res } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { approveAuthorization, emailSchema } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { generateAuthorizationCode, hashAccessToken } from '@formline/tokens';
import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { Public, ApiOperation, DomainErrorWithHeaders, SignInThrottle, RequestId } from '@formline/http-edge';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';
import {
  type AuthorizationRequest,
  AuthorizationPageError,
  AuthorizationRedirectError,
  pageErrorFrom,
  readAuthorizationRequest,
} from './authorization-request';
import { consentPage, errorPage } from './authorize.page';
import { asParameters, type OAuthParameters } from './oauth-parameters';

interface PageReply {
  status(code: number): PageReply;
  header(name: string, value: string): PageReply;
  send(body?: string): void;
}

// The form is protected from cross-site posts by a double-submit token: a
// random value in a SameSite=Strict cookie and in the form, which must match.
// A page on another site can neither read the cookie nor make the browser send it.
const csrfCookie = 'formline_oauth_csrf';

// The authorization request's parameters (RFC 6749 4.1.1, RFC 7636 4.3), as
// readAuthorizationRequest reads them: for the API document.
const authorizationParameters = {
  response_type: z.literal('code'),
  client_id: boundedText(inputLimits.id),
  redirect_uri: boundedText(inputLimits.url),
  scope: boundedText(inputLimits.text).describe('Scopes, space separated.'),
  state: boundedText(inputLimits.text).optional(),
  code_challenge: boundedText(inputLimits.name)
    .optional()
    .describe('PKCE: base64url SHA-256 of the code_verifier.'),
  code_challenge_method: z.literal('S256').optional(),
};
const authorizationQuerySchema = z.object(authorizationParameters);
const consentFormSchema = z.object({
  ...authorizationParameters,
  csrf_token: boundedText(inputLimits.name),
  decision: z.enum(['allow', 'deny']),
  email: boundedText(inputLimits.name).optional(),
  password: boundedText(1024).optional(),
});
const page = (description: string) => ({ description, body: null, contentType: 'text/html' });
const redirect = (description: string) => ({
  description,
  body: null,
  headers: {
    Location: "The client's redirect_uri, with `code` and `state`, or `error` and `error_description`.",
  },
});

// GET {base_url}/oauth/authorize: the same address for every
// account of both regions (accounts are global), served by both gateways.
// It shows a sign-in and consent page; the POST of that page signs the owner
// in, and sends the browser back to the client with a code or an error.
@Controller('oauth')
export class OAuthAuthorizeController {
  private readonly secureCookie: boolean;

  constructor(
    private readonly rpc: RpcClient,
    private readonly signIns: SignInThrottle,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.secureCookie = regionBaseUrls(config)[config.REGION].startsWith('https:');
  }

  @Get('authorize')
  @Public()
  @ApiOperation({
    summary: 'OAuth sign-in and consent page',
    description:
      'For browsers: the page where the account owner signs in and allows or denies the application.',
    security: [],
    query: authorizationQuerySchema,
    responses: {
      200: page('The sign-in and consent page.'),
      302: redirect('Back to the client with an error, once its redirect_uri is known to be its own.'),
      400: page('The request cannot be trusted (unknown client or redirect_uri): an error page.'),
    },
  })
  async show(
    @RequestId() requestId: string,
    @Query() query: unknown,
    @Headers('cookie') cookies: string | undefined,
    @Res() reply: PageReply,
  ): Promise<void> {
    await this.answer(reply, 302, async () => {
      const request = await readAuthorizationRequest(this.rpc, asParameters(query), requestId);
      const csrfToken = csrfTokenFrom(cookies) ?? randomBytes(32).toString('base64url');
      this.setCsrfCookie(reply, csrfToken);
      this.sendPage(reply, 200, consentPage(this.view(request, csrfToken)));
    });
  }

  @Post('authorize')
  @Public()
  @HttpCode(303)
  @ApiOperation({
    summary: 'Sign in and decide (the form of the consent page)',
    description: 'For browsers: the consent page posts here; the browser goes back to the client.',
    security: [],
    body: consentFormSchema,
    bodyContentTypes: ['application/x-www-form-urlencoded'],
    responses: {
      303: redirect('Back to the client, with a code or an error.'),
      400: page('The page again, saying what to correct (or an error page).'),
      403: page('The form expired or was not sent from this site: an error page.'),
      429: page('The page again: too many failed sign-ins for this account.'),
    },
  })
  async decide(
    @RequestId() requestId: string,
    @Body() body: unknown,
    @Headers('cookie') cookies: string | undefined,
    @Ip() clientAddress: string,
    @Res() reply: PageReply,
  ): Promise<void> {
    await this.answer(reply, 303, async () => {
      const params = asParameters(body);
      const csrfToken = csrfTokenFrom(cookies);
      if (!csrfToken || !sameToken(csrfToken, params.csrf_token)) {
        throw new AuthorizationPageError(
          403,
          'This form has expired or was not sent from this site; start again from the application.',
        );
      }
      const request = await readAuthorizationRequest(this.rpc, params, requestId);
      if (params.decision === 'deny') {
        throw new AuthorizationRedirectError(
          request.redirectUri,
          request.state,
          'access_denied',
          'The account owner denied access.',
        );
      }
      if (params.decision !== 'allow')
        throw new AuthorizationPageError(400, 'Choose to allow or deny access.');
      const email = emailSchema.safeParse(params.email);
      const password = typeof params.password === 'string' ? params.password : '';
      const retry = (status: number, message: string) =>
        this.sendPage(
          reply,
          status,
          consentPage({ ...this.view(request, csrfToken), email: email.data, message }),
        );
      if (!email.success || !password) return retry(400, 'Enter your email and password.');
      const code = generateAuthorizationCode();
      try {
        await this.signIns.attempt(email.data, clientAddress, () =>
          this.rpc.request(
            approveAuthorization,
            {
              email: email.data,
              password,
              clientId: request.clientId,
              redirectUri: request.redirectUri,
              scopes: request.scopes,
              codeChallenge: request.codeChallenge,
              codeHash: hashAccessToken(code),
            },
            requestId,
          ),
        );
      } catch (error) {
        if (error instanceof DomainErrorWithHeaders && error.code === ErrorCode.RateLimited) {
          for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
          return retry(429, error.description);
        }
        if (error instanceof DomainError && error.code === ErrorCode.AuthenticationFailed) {
          return retry(400, 'Incorrect email or password.');
        }
        throw pageErrorFrom(error);
      }
      this.redirect(reply, 303, request.redirectUri, { code, state: request.state });
    });
  }

  // Runs a step of the flow; a refusal becomes the error page, or a redirect
  // to the client with `error`. Anything else goes to the error filter.
  private async answer(reply: PageReply, redirectStatus: number, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (error instanceof AuthorizationPageError) {
        this.sendPage(reply, error.status, errorPage(error.description));
      } else if (error instanceof AuthorizationRedirectError) {
        this.redirect(reply, redirectStatus, error.redirectUri, {
          error: error.error,
          error_description: error.description,
          state: error.state,
        });
      } else {
        throw error;
      }
    }
  }

  private view(request: AuthorizationRequest, csrfToken: string) {
    return {
      applicationName: request.applicationName,
      scopes: request.scopes,
      hidden: request.parameters,
      csrfToken,
    };
  }

  private setCsrfCookie(reply: PageReply, token: string): void {
    const attributes = ['Path=/oauth/authorize', 'HttpOnly', 'SameSite=Strict', 'Max-Age=3600'];
    if (this.secureCookie) attributes.push('Secure');
    reply.header('Set-Cookie', [`${csrfCookie}=${token}`, ...attributes].join('; '));
  }

  private sendPage(reply: PageReply, status: number, html: string): void {
    reply
      .status(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      // Consent must not be clickjacked: the page is never framed, and loads nothing.
      .header('X-Frame-Options', 'DENY')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .header('Referrer-Policy', 'no-referrer')
      .send(html);
  }

  private redirect(
    reply: PageReply,
    status: number,
    redirectUri: string,
    params: Record<string, string | undefined>,
  ): void {
    const target = new URL(redirectUri);
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) target.searchParams.set(name, value);
    }
    reply.status(status).header('Location', target.toString()).header('Cache-Control', 'no-store').send();
  }
}

function csrfTokenFrom(cookies: string | undefined): string | undefined {
  for (const cookie of (cookies ?? '').split(';')) {
    const [name, ...value] = cookie.trim().split('=');
    if (name === csrfCookie && /^[\w-]{43}$/.test(value.join('='))) return value.join('=');
  }
  return undefined;
}

function sameToken(expected: string, received: OAuthParameters[string]): boolean {
  if (typeof received !== 'string' || received.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(received));
}
