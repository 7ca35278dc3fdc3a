import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  type AccountOwner,
  createOAuthApplication,
  deleteOAuthApplication,
  listOAuthApplications,
  type OAuthApplication,
  redirectUriSchema,
} from '@formline/contracts';
import { RpcClient } from '@formline/messaging';
import { generateClientId, generateToken, hashAccessToken } from '@formline/tokens';
import { z } from 'zod';
import { OwnerCredentials } from '../auth/owner-credentials.decorator';
import { Owner } from '../auth/owner.decorator';
import { parseRequest } from '../validation/parse-request';

const createBody = z.object({
  name: z.string().trim().min(1).max(100),
  redirect_uris: z.array(redirectUriSchema).min(1).max(10),
});

export interface OAuthApplicationResource {
  client_id: string;
  name: string;
  redirect_uris: string[];
  created_at: string;
}

// OAuth applications an account registers, by its owner (email and password).
// The client secret is in the answer to the registration, and nowhere else.
@Controller('oauth/applications')
export class OAuthApplicationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @OwnerCredentials()
  async create(
    @Owner() owner: AccountOwner,
    @Body() body: unknown,
  ): Promise<OAuthApplicationResource & { client_secret: string }> {
    const request = parseRequest(createBody, body, 'body');
    const clientSecret = generateToken('clientSecret');
    const created = await this.rpc.request(createOAuthApplication, {
      accountId: owner.accountId,
      name: request.name,
      redirectUris: [...new Set(request.redirect_uris)],
      clientId: generateClientId(),
      clientSecretHash: hashAccessToken(clientSecret),
    });
    return { ...present(created), client_secret: clientSecret };
  }

  @Get()
  @OwnerCredentials()
  async list(@Owner() owner: AccountOwner) {
    const { items } = await this.rpc.request(listOAuthApplications, { accountId: owner.accountId });
    return { total_items: items.length, page_count: 1, items: items.map(present) };
  }

  // Every authorization the application received ends with it.
  @Delete(':client_id')
  @HttpCode(204)
  @OwnerCredentials()
  async delete(@Owner() owner: AccountOwner, @Param('client_id') clientId: string): Promise<void> {
    await this.rpc.request(deleteOAuthApplication, { accountId: owner.accountId, clientId });
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
