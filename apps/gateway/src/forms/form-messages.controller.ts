import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  formMessagesSchema,
  getFormMessages,
  replaceFormMessages,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { z } from 'zod';
import { Principal, RequiredScope, ApiOperation, RequestId } from '@formline/http-edge';

// Typeform's form messages: the page's own texts as the form's owner words them.
@Controller('forms')
export class FormMessagesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':form_id/messages')
  @RequiredScope('forms:read')
  @ApiOperation({
    summary: "Retrieve a form's messages",
    description: 'The messages the form overrides; the page reads its own defaults for the others.',
    responses: { 200: { description: 'The messages, by key.', body: z.record(z.string(), z.string()) } },
    errors: [ErrorCode.FormNotFound],
  })
  retrieve(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
  ): Promise<Record<string, string>> {
    return this.rpc.request(getFormMessages, { accountId: principal.accountId, formId }, requestId);
  }

  @Put(':form_id/messages')
  @HttpCode(204)
  @RequiredScope('forms:write')
  @ApiOperation({
    summary: "Replace a form's messages",
    description: 'Every message at once: one left out reads its default again. HTML tags are refused.',
    body: formMessagesSchema,
    responses: { 204: { description: 'Replaced.', body: null } },
    errors: [ErrorCode.FormNotFound],
  })
  async replace(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Body() body: unknown,
  ): Promise<void> {
    await this.rpc.request(
      replaceFormMessages,
      { accountId: principal.accountId, formId, messages: body },
      requestId,
    );
  }
}
