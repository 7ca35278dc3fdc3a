import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import {
  type AccountOwner,
  listOAuthGrants,
  type OAuthGrant,
  pageOf,
  revokeOAuthGrant,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { z } from 'zod';
import { OwnerCredentials, Owner, ApiOperation, RequestId } from '@formline/http-edge';

// What the API shows of a grant: which application, with which scopes, since when.
const oauthGrantResourceSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  application_name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
});
export type OAuthGrantResource = z.output<typeof oauthGrantResourceSchema>;

// The applications the account has let in through the consent page, by its
// owner (email and password, like personal tokens): see them, and cut one off.
@Controller('oauth/grants')
export class OAuthGrantsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @OwnerCredentials()
  @ApiOperation({
    summary: 'The applications this account has granted access to',
    responses: {
      200: { description: 'Every live grant, newest first.', body: pageOf(oauthGrantResourceSchema) },
    },
  })
  async list(@RequestId() requestId: string, @Owner() owner: AccountOwner) {
    const { items } = await this.rpc.request(listOAuthGrants, { accountId: owner.accountId }, requestId);
    return { total_items: items.length, page_count: 1, items: items.map(present) };
  }

  @Delete(':grant_id')
  @HttpCode(204)
  @OwnerCredentials()
  @ApiOperation({
    summary: "Revoke an application's access",
    description: 'Every access and refresh token issued under the grant stops working at once.',
    responses: { 204: { description: 'Revoked.', body: null } },
    errors: [ErrorCode.NotFound],
  })
  async revoke(
    @RequestId() requestId: string,
    @Owner() owner: AccountOwner,
    @Param('grant_id') grantId: string,
  ): Promise<void> {
    await this.rpc.request(revokeOAuthGrant, { accountId: owner.accountId, grantId }, requestId);
  }
}

function present(grant: OAuthGrant): OAuthGrantResource {
  return {
    id: grant.grantId,
    client_id: grant.clientId,
    application_name: grant.applicationName,
    scopes: grant.scopes,
    created_at: grant.createdAt,
  };
}
