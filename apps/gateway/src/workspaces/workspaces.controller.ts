import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listWorkspaces,
  type Page,
  pageOf,
  patchOperationsSchema,
  patchWorkspace,
  workspaceBodySchema,
  type WorkspaceResource,
  workspaceResourceSchema,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { boundedText, inputLimits } from '@formline/input';
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
const notFound = [ErrorCode.WorkspaceNotFound];

// Typeform's Create API for workspaces.
@Controller('workspaces')
export class WorkspacesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequiredScope('workspaces:read')
  @ApiOperation({
    summary: "List the account's workspaces",
    description: 'Its own (the default one first), then those shared with it.',
    responses: {
      200: {
        description: 'One page of workspaces, the default one first.',
        body: pageOf(workspaceResourceSchema),
      },
    },
  })
  list(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Query(new QueryPipe(listQuery)) query: z.output<typeof listQuery>,
  ): Promise<Page<WorkspaceResource>> {
    return this.rpc.request(
      listWorkspaces,
      {
        accountId: principal.accountId,
        page: query.page,
        pageSize: query.page_size,
        search: query.search,
      },
      requestId,
    );
  }

  @Post()
  @HttpCode(201)
  @RequiredScope('workspaces:write')
  @ApiOperation({
    summary: 'Create a workspace',
    body: workspaceBodySchema,
    responses: { 201: { description: 'The new workspace.', body: workspaceResourceSchema } },
  })
  create(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Body() body: unknown,
  ): Promise<WorkspaceResource> {
    return this.rpc.request(createWorkspace, { accountId: principal.accountId, body }, requestId);
  }

  @Get(':workspace_id')
  @RequiredScope('workspaces:read')
  @ApiOperation({
    summary: 'Retrieve a workspace',
    responses: { 200: { description: 'The workspace.', body: workspaceResourceSchema } },
    errors: notFound,
  })
  retrieve(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('workspace_id') workspaceId: string,
  ): Promise<WorkspaceResource> {
    return this.rpc.request(getWorkspace, { accountId: principal.accountId, workspaceId }, requestId);
  }

  @Patch(':workspace_id')
  @HttpCode(204)
  @RequiredScope('workspaces:write')
  @ApiOperation({
    summary: 'Rename a workspace (JSON Patch on /name), add and remove members (on /members)',
    description:
      'The owning account and members with role `owner` may patch; a `member` is refused with 403 FORBIDDEN.',
    body: patchOperationsSchema,
    responses: { 204: { description: 'Renamed.', body: null } },
    errors: [...notFound, ErrorCode.Forbidden],
  })
  async patch(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('workspace_id') workspaceId: string,
    @Body() body: unknown,
  ): Promise<void> {
    await this.rpc.request(
      patchWorkspace,
      { accountId: principal.accountId, workspaceId, operations: body },
      requestId,
    );
  }

  @Delete(':workspace_id')
  @HttpCode(204)
  @RequiredScope('workspaces:write')
  @ApiOperation({
    summary: 'Delete a workspace',
    description:
      'Never the default workspace, nor one that still holds forms (409); only by the owning account (403 to its members).',
    responses: { 204: { description: 'Deleted.', body: null } },
    errors: [...notFound, ErrorCode.Conflict, ErrorCode.Forbidden],
  })
  async delete(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('workspace_id') workspaceId: string,
  ): Promise<void> {
    await this.rpc.request(deleteWorkspace, { accountId: principal.accountId, workspaceId }, requestId);
  }
}
