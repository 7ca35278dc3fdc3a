import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  type AccountOwner,
  apiScopeSchema,
  createPersonalToken,
  listPersonalTokens,
  type PersonalToken,
  revokePersonalToken,
} from '@formline/contracts';
import { RpcClient } from '@formline/messaging';
import { generatePersonalAccessToken, hashAccessToken } from '@formline/tokens';
import { z } from 'zod';
import { OwnerCredentials } from '../auth/owner-credentials.decorator';
import { Owner } from '../auth/owner.decorator';
import { parseRequest } from '../validation/parse-request';

const createBody = z.object({
  name: z.string().trim().min(1).max(100),
  // A JSON array, or space-separated as OAuth writes scopes.
  scopes: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(' ').filter(Boolean) : value),
    z.array(apiScopeSchema).min(1),
  ),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});

export interface PersonalTokenResource {
  id: string;
  name: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
}

// Personal access tokens of the account whose owner signs in with email and
// password. The token itself is in the answer to its creation, and nowhere else.
@Controller('tokens')
export class PersonalTokensController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @OwnerCredentials()
  async create(
    @Owner() owner: AccountOwner,
    @Body() body: unknown,
  ): Promise<PersonalTokenResource & { token: string }> {
    const request = parseRequest(createBody, body, 'body');
    const token = generatePersonalAccessToken();
    const created = await this.rpc.request(createPersonalToken, {
      accountId: owner.accountId,
      name: request.name,
      scopes: [...new Set(request.scopes)],
      expiresAt: request.expires_at ? new Date(request.expires_at).toISOString() : undefined,
      tokenHash: hashAccessToken(token),
    });
    return { ...present(created), token };
  }

  @Get()
  @OwnerCredentials()
  async list(@Owner() owner: AccountOwner) {
    const { items } = await this.rpc.request(listPersonalTokens, { accountId: owner.accountId });
    return { total_items: items.length, page_count: 1, items: items.map(present) };
  }

  @Delete(':token_id')
  @HttpCode(204)
  @OwnerCredentials()
  async revoke(@Owner() owner: AccountOwner, @Param('token_id') tokenId: string): Promise<void> {
    await this.rpc.request(revokePersonalToken, { accountId: owner.accountId, tokenId });
  }
}

function present(token: PersonalToken): PersonalTokenResource {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
  };
}
