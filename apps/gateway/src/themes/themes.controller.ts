import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  createTheme,
  deleteTheme,
  getTheme,
  listThemes,
  type Page,
  pageOf,
  patchTheme,
  replaceTheme,
  themeBodySchema,
  themePatchSchema,
  type ThemeResource,
  themeResourceSchema,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
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

const listQuery = z.object(pagingQuery);
const notFound = [ErrorCode.ThemeNotFound];
const builtIn = 'The built-in `default` theme cannot be changed or deleted (409).';

// Typeform's Themes API. Every account sees the built-in `default` theme (the
// one `theme.href` of a form without a theme points at) and its own themes.
@Controller('themes')
export class ThemesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequiredScope('themes:read')
  @ApiOperation({
    summary: 'List themes',
    description: 'The built-in default theme first, then the account’s own, oldest first.',
    responses: { 200: { description: 'One page of themes.', body: pageOf(themeResourceSchema) } },
  })
  list(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Query(new QueryPipe(listQuery)) query: z.output<typeof listQuery>,
  ): Promise<Page<ThemeResource>> {
    return this.rpc.request(
      listThemes,
      {
        accountId: principal.accountId,
        page: query.page,
        pageSize: query.page_size,
      },
      requestId,
    );
  }

  @Post()
  @HttpCode(201)
  @RequiredScope('themes:write')
  @ApiOperation({
    summary: 'Create a theme',
    body: themeBodySchema,
    responses: { 201: { description: 'The new theme.', body: themeResourceSchema } },
  })
  create(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Body() body: unknown,
  ): Promise<ThemeResource> {
    return this.rpc.request(createTheme, { accountId: principal.accountId, body }, requestId);
  }

  @Get(':theme_id')
  @RequiredScope('themes:read')
  @ApiOperation({
    summary: 'Retrieve a theme',
    responses: { 200: { description: 'The theme.', body: themeResourceSchema } },
    errors: notFound,
  })
  retrieve(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('theme_id') themeId: string,
  ): Promise<ThemeResource> {
    return this.rpc.request(getTheme, { accountId: principal.accountId, themeId }, requestId);
  }

  @Put(':theme_id')
  @RequiredScope('themes:write')
  @ApiOperation({
    summary: 'Replace a theme',
    description: builtIn,
    body: themeBodySchema,
    responses: { 200: { description: 'The theme as changed.', body: themeResourceSchema } },
    errors: [...notFound, ErrorCode.Conflict],
  })
  replace(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('theme_id') themeId: string,
    @Body() body: unknown,
  ): Promise<ThemeResource> {
    return this.rpc.request(replaceTheme, { accountId: principal.accountId, themeId, body }, requestId);
  }

  @Patch(':theme_id')
  @RequiredScope('themes:write')
  @ApiOperation({
    summary: 'Change part of a theme',
    description: `Only the properties sent change; objects (colors, fields, ...) merge. ${builtIn}`,
    body: themePatchSchema,
    responses: { 200: { description: 'The theme as changed.', body: themeResourceSchema } },
    errors: [...notFound, ErrorCode.Conflict],
  })
  patch(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('theme_id') themeId: string,
    @Body() body: unknown,
  ): Promise<ThemeResource> {
    return this.rpc.request(patchTheme, { accountId: principal.accountId, themeId, body }, requestId);
  }

  @Delete(':theme_id')
  @HttpCode(204)
  @RequiredScope('themes:write')
  @ApiOperation({
    summary: 'Delete a theme',
    description: `Forms that used it show the default theme. ${builtIn}`,
    responses: { 204: { description: 'Deleted.', body: null } },
    errors: [...notFound, ErrorCode.Conflict],
  })
  async delete(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('theme_id') themeId: string,
  ): Promise<void> {
    await this.rpc.request(deleteTheme, { accountId: principal.accountId, themeId }, requestId);
  }
}
