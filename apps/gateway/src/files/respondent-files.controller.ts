import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { type AccessTokenPrincipal, listResponses, recordUpload } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { allFields, type FormDefinition } from '@formline/form-definition';
import { newPublicId } from '@formline/ids';
import { inputLimits } from '@formline/input';
import { RpcClient } from '@formline/messaging';
import {
  fileKey,
  isStoredFileName,
  type ObjectStore,
  responseFileUrl,
  safeFileName,
  uploadUrl,
} from '@formline/object-storage';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  OptionalPrincipal,
  ScopeIfAuthenticated,
  Principal,
  RequiredScope,
  QueryPipe,
  ApiOperation,
  RequestId,
  AnonymousBudget,
  UploadBudget,
  type AuthenticatedRequest,
} from '@formline/http-edge';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { SubmissionTargets } from '../responses/submission-target';
import { FILE_STORE } from './file.store';

const uploadQuery = z.strictObject({ filename: z.string().min(1).max(inputLimits.name) });
// The body is the file itself, whatever it holds (checked by size only).
const fileBody = z
  .string()
  .max(100 * 1024 * 1024)
  .meta({ format: 'binary', description: 'The file’s bytes (at most `FILE_MAX_BYTES`).' });
const uploadAnswer = z.object({
  file_url: z.string().describe('What the submission answers the question with (`file_url`).'),
  file_name: z.string(),
  size: z.int(),
});

// Files of `file_upload` questions. A respondent uploads the file first (as a
// submission, anonymous on a public form, rate limited and bounded), then
// submits the `file_url` it got as the answer; the form's owner downloads it
// through Typeform's response files endpoint. Files are responses data: they
// stay in the store of the form's account's region.
@Controller('forms/:form_id')
export class RespondentFilesController {
  private readonly regionBase: string;

  constructor(
    private readonly rpc: RpcClient,
    private readonly targets: SubmissionTargets,
    @Inject(FILE_STORE) private readonly store: ObjectStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.regionBase = regionBaseUrls(config)[config.REGION];
  }

  @Post('files/:field_id')
  @HttpCode(201)
  @ScopeIfAuthenticated('responses:write')
  @AnonymousBudget('submissions')
  @UploadBudget()
  @ApiOperation({
    summary: 'Upload a file for a file_upload question, or a recording for a multi_format one',
    description:
      'The file is the body (`application/octet-stream`, at most `FILE_MAX_BYTES`), its name in `filename`. ' +
      'Answer the question with the `file_url` returned. Rate limited as submissions are, and within ' +
      'storage budgets of bytes and files a window: per client address and per form without a token, ' +
      "per account with one (429 with Retry-After); only at the form's own region's address.",
    body: fileBody,
    bodyContentTypes: ['application/octet-stream'],
    responses: { 201: { description: 'The stored file.', body: uploadAnswer } },
    errors: [ErrorCode.FormNotFound, ErrorCode.NotFound, ErrorCode.WrongRegion, ErrorCode.PayloadTooLarge],
  })
  async upload(
    @RequestId() requestId: string,
    @Req() request: AuthenticatedRequest,
    @OptionalPrincipal() principal: AccessTokenPrincipal | undefined,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Query(new QueryPipe(uploadQuery)) query: z.output<typeof uploadQuery>,
    @Body() body: unknown,
  ): Promise<z.output<typeof uploadAnswer>> {
    const target = await this.targets.locate(formId, { principal, requestId }, { verb: 'upload' });
    // Files are responses data: only the form's region takes them (refused, not redirected).
    this.targets.elsewhere(target, { path: `/forms/${formId}/files/${fieldId}`, takes: 'files' });
    const { form } = target;
    const field = fileField(form.definition as FormDefinition, fieldId);
    if (!Buffer.isBuffer(body) || body.length === 0) {
      throw new DomainError(
        ErrorCode.ValidationError,
        'Send the file as the body, with Content-Type application/octet-stream.',
        [{ code: 'INVALID_FILE', description: 'the body must hold the file', field: '', in: 'body' }],
      );
    }
    if (body.length > this.config.FILE_MAX_BYTES) {
      throw new DomainError(
        ErrorCode.PayloadTooLarge,
        `A file may hold at most ${this.config.FILE_MAX_BYTES} bytes.`,
      );
    }
    // Counted by the bytes stored (a chunked body declared none), before any are.
    const reservation = request.uploadReservation;
    await reservation?.settle(body.length);
    const fileName = `${newPublicId(16)}-${safeFileName(query.filename)}`;
    // The record first: bytes without one could never be pruned. A record
    // whose bytes never arrive is an upload no submission can name (its
    // address was never given out), pruned in time.
    await this.rpc.request(
      recordUpload,
      { formId, fieldId: field.id, fileName, size: body.length },
      requestId,
    );
    await this.store.put(
      fileKey(this.config.REGION, formId, field.id, fileName),
      body,
      'application/octet-stream',
    );
    reservation?.keep();
    return {
      file_url: uploadUrl(this.regionBase, formId, field.id, fileName),
      file_name: fileName,
      size: body.length,
    };
  }

  @Get('responses/:response_id/fields/:field_id/files/:filename')
  @RequiredScope('responses:read')
  @ApiOperation({
    summary: "Download a response's file",
    description:
      "The file a response answered a file_upload question with, as an attachment. Only the region of the form's account holds it.",
    responses: { 200: { description: 'The file.', body: null, contentType: 'application/octet-stream' } },
    errors: [ErrorCode.FormNotFound, ErrorCode.NotFound],
  })
  async download(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('response_id') responseId: string,
    @Param('field_id') fieldId: string,
    @Param('filename') filename: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const page = await this.rpc.request(
      listResponses,
      {
        accountId: principal.accountId,
        formId,
        query: {
          pageSize: 1,
          includedResponseIds: [responseId],
          sort: { field: 'submitted_at', order: 'desc' },
        },
      },
      requestId,
    );
    const answers = (page.items[0]?.answers ?? []) as Array<{
      field?: { id?: string };
      type?: string;
      file_url?: string;
      multi_format?: { file_url?: string };
    }>;
    // The response answers that question with this very file: its address,
    // as the Responses API shows it, is the one asked for.
    const wanted = responseFileUrl(this.regionBase, formId, responseId, fieldId, filename);
    const answered = answers.some(
      (item) =>
        item.field?.id === fieldId &&
        ((item.type === 'file_url' && item.file_url === wanted) ||
          (item.type === 'multi_format' && item.multi_format?.file_url === wanted)),
    );
    const bytes =
      answered && isStoredFileName(filename)
        ? await this.store.get(fileKey(this.config.REGION, formId, fieldId, filename))
        : undefined;
    if (!bytes)
      throw new DomainError(ErrorCode.NotFound, `No file ${filename.slice(0, 120)} in that response.`);
    void reply
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(bytes);
  }
}

function fileField(definition: FormDefinition, fieldId: string) {
  const field = allFields(definition.fields).find((item) => item.id === fieldId || item.ref === fieldId);
  // A file_upload's file, or a multi_format question's recording.
  if (!field || (field.type !== 'file_upload' && field.type !== 'multi_format')) {
    throw new DomainError(
      ErrorCode.NotFound,
      `The form has no file_upload or multi_format question ${fieldId.slice(0, 120)}.`,
    );
  }
  return field;
}
