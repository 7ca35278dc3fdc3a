import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listWorkspaces,
  type Page,
  patchWorkspace,
  type WorkspaceResource,
} from '@formline/contracts';
import { RpcClient } from '@formline/messaging';
import { z } from 'zod';
import { Principal } from '../auth/principal.decorator';
import { RequiredScope } from '../auth/required-scope.decorator';
import { pagingQuery } from '../http/listing.query';
import { QueryPipe } from '../http/query.pipe';

const listQuery = z.object({ ...pagingQuery, search: z.string().optional() });

// Typeform's Create API for workspaces.
@Controller('workspaces')
export class WorkspacesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequiredScope('workspaces:read')
  list(
    @Principal() principal: AccessTokenPrincipal,
    @Query(new QueryPipe(listQuery)) query: z.output<typeof listQuery>,
  ): Promise<Page<WorkspaceResource>> {
    return this.rpc.request(listWorkspaces, {
      accountId: principal.accountId,
      page: query.page,
      pageSize: query.page_size,
      search: query.search,
    });
  }

  @Post()
  @HttpCode(201)
  @RequiredScope('workspaces:write')
  create(@Principal() principal: AccessTokenPrincipal, @Body() body: unknown): Promise<WorkspaceResource> {
    return this.rpc.request(createWorkspace, { accountId: principal.accountId, body });
  }

  @Get(':workspace_id')
  @RequiredScope('workspaces:read')
  retrieve(
    @Principal() principal: AccessTokenPrincipal,
    @Param('workspace_id') workspaceId: string,
  ): Promise<WorkspaceResource> {
    return this.rpc.request(getWorkspace, { accountId: principal.accountId, workspaceId });
  }

  @Patch(':workspace_id')
  @HttpCode(204)
  @RequiredScope('workspaces:write')
  async patch(
    @Principal() principal: AccessTokenPrincipal,
    @Param('workspace_id') workspaceId: string,
    @Body() body: unknown,
  ): Promise<void> {
    await this.rpc.request(patchWorkspace, { accountId: principal.accountId, workspaceId, operations: body });
  }

  @Delete(':workspace_id')
  @HttpCode(204)
  @RequiredScope('workspaces:write')
  async delete(
    @Principal() principal: AccessTokenPrincipal,
    @Param('workspace_id') workspaceId: string,
  ): Promise<void> {
    await this.rpc.request(deleteWorkspace, { accountId: principal.accountId, workspaceId });
  }
}
