import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  listWorkspaces,
  type Page,
  pageOf,
  type WorkspaceResource,
  workspaceResourceSchema,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { boundedText, inputLimits } from '@formline/input';
import { RpcClient } from '@formline/messaging';
import { z } from 'zod';
import {
  Principal,
  RequiredScope,
  pagingQuery,
  QueryPipe,
  ApiOperation,
  RequestId,
} from '@formline/http-edge';

const listQuery = z.object({ ...pagingQuery, search: boundedText(inputLimits.text).optional() });

// Typeform's GET /accounts/{account_id}/workspaces: the workspaces of the
// account the token belongs to; any other account is not found (never
// another account's workspaces, nor whether that account exists).
@Controller('accounts')
export class AccountWorkspacesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':account_id/workspaces')
  @RequiredScope('workspaces:read')
  @ApiOperation({
    summary: "List an account's workspaces",
    description:
      "The token's own account only (its `account_id`, as workspaces show it): its own workspaces, " +
      'then those shared with it.',
    responses: {
      200: {
        description: 'One page of workspaces, the default one first.',
        body: pageOf(workspaceResourceSchema),
      },
    },
    errors: [ErrorCode.NotFound],
  })
  list(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('account_id') accountId: string,
    @Query(new QueryPipe(listQuery)) query: z.output<typeof listQuery>,
  ): Promise<Page<WorkspaceResource>> {
    if (accountId !== principal.accountId)
      throw new DomainError(ErrorCode.NotFound, `Non existing account with id ${accountId}.`);
    return this.rpc.request(
      listWorkspaces,
      {
        accountId,
        page: query.page,
        pageSize: query.page_size,
        search: query.search,
      },
      requestId,
    );
  }
}
