import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  type AccountOwner,
  apiScopeSchema,
  createPersonalToken,
  pageOf,
  listPersonalTokens,
  type PersonalToken,
  revokePersonalToken,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { generatePersonalAccessToken, hashAccessToken } from '@formline/tokens';
import { inputLimits } from '@formline/input';
import { z } from 'zod';
import { OwnerCredentials, Owner, ApiOperation, parseRequest, RequestId } from '@formline/http-edge';

const createBody = z.object({
  name: z.string().trim().min(1).max(100),
  // A JSON array, or space-separated as OAuth writes scopes.
  scopes: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(' ').filter(Boolean) : value),
    z.array(apiScopeSchema).min(1).max(inputLimits.scopes),
  ),
  expires_at: z.iso.datetime({ offset: true }).max(inputLimits.name).optional(),
});

// What the API shows of a token (for the API document; `present` builds it).
const personalTokenResourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});
const createdTokenSchema = personalTokenResourceSchema.extend({
  token: z.string().describe('The token itself: shown here once, never again.'),
});

export type PersonalTokenResource = z.output<typeof personalTokenResourceSchema>;

// Personal access tokens of the account whose owner signs in with email and
// password. The token itself is in the answer to its creation, and nowhere else.
@Controller('tokens')
export class PersonalTokensController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @OwnerCredentials()
  @ApiOperation({
    summary: 'Create a personal access token',
    description:
      'An account holds at most `PERSONAL_TOKENS_PER_ACCOUNT` live tokens (default 100); one more answers 409 `CONFLICT` (detail `TOO_MANY_TOKENS`) until one is revoked or expires.',
    body: createBody,
    responses: { 201: { description: 'The token, with its secret (shown once).', body: createdTokenSchema } },
    errors: [ErrorCode.Conflict],
  })
  async create(
    @RequestId() requestId: string,
    @Owner() owner: AccountOwner,
    @Body() body: unknown,
  ): Promise<PersonalTokenResource & { token: string }> {
    const request = parseRequest(createBody, body, 'body');
    const token = generatePersonalAccessToken();
    const created = await this.rpc.request(
      createPersonalToken,
      {
        accountId: owner.accountId,
        name: request.name,
        scopes: [...new Set(request.scopes)],
        expiresAt: request.expires_at ? new Date(request.expires_at).toISOString() : undefined,
        tokenHash: hashAccessToken(token),
      },
      requestId,
    );
    return { ...present(created), token };
  }

  @Get()
  @OwnerCredentials()
  @ApiOperation({
    summary: "The account's personal access tokens",
    responses: {
      200: { description: 'Every token, without its secret.', body: pageOf(personalTokenResourceSchema) },
    },
  })
  async list(@RequestId() requestId: string, @Owner() owner: AccountOwner) {
    const { items } = await this.rpc.request(listPersonalTokens, { accountId: owner.accountId }, requestId);
    return { total_items: items.length, page_count: 1, items: items.map(present) };
  }

  @Delete(':token_id')
  @HttpCode(204)
  @OwnerCredentials()
  @ApiOperation({
    summary: 'Revoke a personal access token',
    responses: { 204: { description: 'Revoked.', body: null } },
    errors: [ErrorCode.TokenNotFound],
  })
  async revoke(
    @RequestId() requestId: string,
    @Owner() owner: AccountOwner,
    @Param('token_id') tokenId: string,
  ): Promise<void> {
    await this.rpc.request(revokePersonalToken, { accountId: owner.accountId, tokenId }, requestId);
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
