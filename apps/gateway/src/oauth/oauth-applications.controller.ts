import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  type AccountOwner,
  createOAuthApplication,
  deleteOAuthApplication,
  listOAuthApplications,
  type OAuthApplication,
  pageOf,
  redirectUriSchema,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { generateClientId, generateToken, hashAccessToken } from '@formline/tokens';
import { z } from 'zod';
import { OwnerCredentials, Owner, ApiOperation, parseRequest, RequestId } from '@formline/http-edge';

const createBody = z.object({
  name: z.string().trim().min(1).max(100),
  redirect_uris: z.array(redirectUriSchema).min(1).max(10),
});

// What the API shows of an application (for the API document; `present` builds it).
const oauthApplicationResourceSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  redirect_uris: z.array(z.string()),
  created_at: z.string(),
});
const registeredApplicationSchema = oauthApplicationResourceSchema.extend({
  client_secret: z.string().describe('The client secret: shown here once, never again.'),
});

export type OAuthApplicationResource = z.output<typeof oauthApplicationResourceSchema>;

// OAuth applications an account registers, by its owner (email and password).
// The client secret is in the answer to the registration, and nowhere else.
@Controller('oauth/applications')
export class OAuthApplicationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @OwnerCredentials()
  @ApiOperation({
    summary: 'Register an OAuth application',
    description:
      'An account holds at most `OAUTH_APPLICATIONS_PER_ACCOUNT` applications (default 50); one more answers 409 `CONFLICT` (detail `TOO_MANY_APPLICATIONS`) until one is deleted.',
    body: createBody,
    responses: {
      201: {
        description: 'The application, with its client secret (shown once).',
        body: registeredApplicationSchema,
      },
    },
  })
  async create(
    @RequestId() requestId: string,
    @Owner() owner: AccountOwner,
    @Body() body: unknown,
  ): Promise<OAuthApplicationResource & { client_secret: string }> {
    const request = parseRequest(createBody, body, 'body');
    const clientSecret = generateToken('clientSecret');
    const created = await this.rpc.request(
      createOAuthApplication,
      {
        accountId: owner.accountId,
        name: request.name,
        redirectUris: [...new Set(request.redirect_uris)],
        clientId: generateClientId(),
        clientSecretHash: hashAccessToken(clientSecret),
      },
      requestId,
    );
    return { ...present(created), client_secret: clientSecret };
  }

  @Get()
  @OwnerCredentials()
  @ApiOperation({
    summary: "The account's OAuth applications",
    responses: {
      200: {
        description: 'Every application, without its secret.',
        body: pageOf(oauthApplicationResourceSchema),
      },
    },
  })
  async list(@RequestId() requestId: string, @Owner() owner: AccountOwner) {
    const { items } = await this.rpc.request(
      listOAuthApplications,
      { accountId: owner.accountId },
      requestId,
    );
    return { total_items: items.length, page_count: 1, items: items.map(present) };
  }

  // Every authorization the application received ends with it.
  @Delete(':client_id')
  @HttpCode(204)
  @OwnerCredentials()
  @ApiOperation({
    summary: 'Delete an OAuth application',
    description: 'Every authorization and token it received ends with it.',
    responses: { 204: { description: 'Deleted.', body: null } },
    errors: [ErrorCode.ApplicationNotFound],
  })
  async delete(
    @RequestId() requestId: string,
    @Owner() owner: AccountOwner,
    @Param('client_id') clientId: string,
  ): Promise<void> {
    await this.rpc.request(deleteOAuthApplication, { accountId: owner.accountId, clientId }, requestId);
  }
}

function present(application: OAuthApplication): OAuthApplicationResource {
  return {
    client_id: application.clientId,
    name: application.name,
    redirect_uris: application.redirectUris,
    created_at: application.createdAt,
  };
}
