import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  createForm,
  deleteForm,
  type FormResource,
  formResourceSchema,
  type FormSummary,
  formSortFields,
  formSummarySchema,
  getForm,
  listForms,
  type Page,
  pageOf,
  patchForm,
  patchOperationsSchema,
  replaceForm,
  type VersionedForm,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { formInputSchema } from '@formline/form-definition';
import { RpcClient } from '@formline/messaging';
import type { FastifyReply } from 'fastify';
import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import {
  Principal,
  type CachedForm,
  ReadCache,
  RequiredScope,
  etagOf,
  versionFromIfMatch,
  pagingQuery,
  QueryPipe,
  ApiOperation,
  RequestId,
} from '@formline/http-edge';

const listQuery = z.object({
  ...pagingQuery,
  search: boundedText(inputLimits.text).optional(),
  workspace_id: boundedText(inputLimits.id).optional(),
  sort_by: z.enum(formSortFields).default('created_at'),
  order_by: z.enum(['asc', 'desc']).default('desc'),
});

const etag = { ETag: "The form's version: send it back in If-Match to write only over this version." };
const ifMatch =
  'PUT and PATCH with If-Match write only if the form is still at that version (412 otherwise).';
const notFound = [ErrorCode.FormNotFound];
// A member of the shared workspace whose role does not allow it (moving or deleting the form).
const forbidden = ErrorCode.Forbidden;
const shared =
  ' A form in a workspace shared with the account is reached too; a member with role `member` ' +
  'may read and change it, but not move it to another workspace nor delete it (403).';

// Typeform's Create API for forms: the same answers on both base addresses
// (region rule 1, docs/architecture.md).
@Controller('forms')
export class FormsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cache: ReadCache,
  ) {}

  @Post()
  @HttpCode(201)
  @RequiredScope('forms:write')
  @ApiOperation({
    summary: 'Create a form',
    description: 'Unknown properties are refused; read-only ones (id, _links, ...) are ignored.',
    body: formInputSchema,
    responses: {
      201: {
        description: 'The form as stored, every default filled.',
        body: formResourceSchema,
        headers: etag,
      },
    },
  })
  async create(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FormResource> {
    const created = await this.rpc.request(
      createForm,
      { accountId: principal.accountId, definition: body },
      requestId,
    );
    return withEtag(reply, created);
  }

  @Get()
  @RequiredScope('forms:read')
  @ApiOperation({
    summary: "List the account's forms",
    description: 'With the forms of the workspaces shared with the account.',
    responses: {
      200: { description: 'One page of forms, newest first by default.', body: pageOf(formSummarySchema) },
    },
  })
  async list(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Query(new QueryPipe(listQuery)) query: z.output<typeof listQuery>,
  ): Promise<Page<FormSummary>> {
    return this.rpc.request(
      listForms,
      {
        accountId: principal.accountId,
        page: query.page,
        pageSize: query.page_size,
        search: query.search,
        workspaceId: query.workspace_id,
        sortBy: query.sort_by,
        orderBy: query.order_by,
      },
      requestId,
    );
  }

  @Get(':form_id')
  @RequiredScope('forms:read')
  @ApiOperation({
    summary: 'Retrieve a form',
    description:
      "The same on both base addresses; `_links.responses` uses the base address of the account's region.",
    responses: { 200: { description: 'The form.', body: formResourceSchema, headers: etag } },
    errors: notFound,
  })
  retrieve(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Buffer | Promise<Buffer> {
    // Kept serialized: a cached read sends the same bytes without turning the
    // form into JSON again (the largest piece of a cached read's own work),
    // and answers without a promise.
    const key = `${principal.accountId}/${formId}`;
    const cached = this.cache.forms.get(key);
    if (cached) return sendForm(reply, cached);
    return this.cache.forms
      .getOrLoad(key, async () => {
        const { form, version } = await this.rpc.request(
          getForm,
          { accountId: principal.accountId, formId },
          requestId,
        );
        return {
          accountId: principal.accountId,
          formId,
          version,
          etag: etagOf(version),
          body: Buffer.from(JSON.stringify(form)),
        };
      })
      .then((loaded) => sendForm(reply, loaded));
  }

  @Put(':form_id')
  @RequiredScope('forms:write')
  @ApiOperation({
    summary: 'Replace a form',
    description: ifMatch + shared,
    body: formInputSchema,
    responses: { 200: { description: 'The form as stored.', body: formResourceSchema, headers: etag } },
    errors: [...notFound, ErrorCode.PreconditionFailed, forbidden],
  })
  async replace(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FormResource> {
    const replaced = await this.rpc.request(
      replaceForm,
      {
        accountId: principal.accountId,
        formId,
        definition: body,
        expectedVersion: versionFromIfMatch(ifMatch),
      },
      requestId,
    );
    return withEtag(reply, replaced);
  }

  @Patch(':form_id')
  @HttpCode(204)
  @RequiredScope('forms:write')
  @ApiOperation({
    summary: 'Change parts of a form (JSON Patch)',
    description: `RFC 6902 add, remove and replace under /title, /settings, /theme, /workspace and /cui_settings. ${ifMatch}${shared}`,
    body: patchOperationsSchema,
    responses: { 204: { description: 'Patched.', body: null, headers: etag } },
    errors: [...notFound, ErrorCode.PreconditionFailed, forbidden],
  })
  async patch(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const { version } = await this.rpc.request(
      patchForm,
      {
        accountId: principal.accountId,
        formId,
        operations: body,
        expectedVersion: versionFromIfMatch(ifMatch),
      },
      requestId,
    );
    void reply.header('ETag', etagOf(version));
  }

  @Delete(':form_id')
  @HttpCode(204)
  @RequiredScope('forms:write')
  @ApiOperation({
    summary: 'Delete a form',
    description: shared.trim(),
    responses: { 204: { description: 'Deleted.', body: null } },
    errors: [...notFound, forbidden],
  })
  async delete(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
  ): Promise<void> {
    await this.rpc.request(deleteForm, { accountId: principal.accountId, formId }, requestId);
  }
}

// As bytes: Node then writes the headers and the body as they are, instead
// of joining them into one string to encode on every response.
function sendForm(reply: FastifyReply, form: CachedForm): Buffer {
  void reply.header('ETag', form.etag).type('application/json; charset=utf-8');
  return form.body;
}

function withEtag(reply: FastifyReply, versioned: VersionedForm): FormResource {
  void reply.header('ETag', etagOf(versioned.version));
  return versioned.form;
}
