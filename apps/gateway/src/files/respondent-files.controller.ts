import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { type AccessTokenPrincipal, listResponses } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { allFields, type FormDefinition } from '@formline/form-definition';
import { inputLimits } from '@formline/input';
import { RpcClient } from '@formline/messaging';
import { uploadUrl } from '@formline/object-storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  StreamedBody,
  type AuthenticatedRequest,
} from '@formline/http-edge';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';
import { MediaAppClient } from '../media-app/media-app.client';
import { SubmissionTargets } from '../responses/submission-target';
import { answeredFiles } from './answered-files';

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
// stay in the store of the form's account's region, which the region's media
// app alone opens. Here is what is decided before a byte of the body is read
// (access and budgets at the access gate; the form, its region and the
// question, from the gateway's form cache) and which response answers with
// which file; the bytes stream through to the media app and back.
@Controller('forms/:form_id')
export class RespondentFilesController {
  private readonly regionBase: string;

  constructor(
    private readonly rpc: RpcClient,
    private readonly targets: SubmissionTargets,
    private readonly media: MediaAppClient,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.regionBase = regionBaseUrls(config)[config.REGION];
  }

  @Post('files/:field_id')
  @HttpCode(201)
  @ScopeIfAuthenticated('responses:write')
  @AnonymousBudget('submissions')
  @UploadBudget()
  @StreamedBody()
  @ApiOperation({
    summary: 'Upload a file for a file_upload question, or a recording for a multi_format one',
    description:
      'The file is the body (`application/octet-stream`, at most `FILE_MAX_BYTES`, with its `Content-Length`: ' +
      'a body without one is refused 411), its name in `filename`. ' +
      'Answer the question with the `file_url` returned. Rate limited as submissions are, and within ' +
      'storage budgets of bytes and files a window: per client address and per form without a token, ' +
      "per account with one (429 with Retry-After); only at the form's own region's address.",
    body: fileBody,
    bodyContentTypes: ['application/octet-stream'],
    responses: { 201: { description: 'The stored file.', body: uploadAnswer } },
    errors: [
      ErrorCode.FormNotFound,
      ErrorCode.NotFound,
      ErrorCode.WrongRegion,
      ErrorCode.PayloadTooLarge,
      ErrorCode.LengthRequired,
    ],
  })
  async upload(
    @RequestId() requestId: string,
    @Req() request: FastifyRequest & Pick<AuthenticatedRequest, 'uploadReservation'>,
    @OptionalPrincipal() principal: AccessTokenPrincipal | undefined,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Query(new QueryPipe(uploadQuery)) query: z.output<typeof uploadQuery>,
  ): Promise<z.output<typeof uploadAnswer>> {
    // The access gate let in a body that declares its size (UploadThrottle);
    // the raw bytes are left unread for the media app (streamRawBodies), so a
    // body already parsed came as another content type.
    if (request.body !== undefined || request.headers['content-length'] === '0') {
      throw new DomainError(
        ErrorCode.ValidationError,
        'Send the file as the body, with Content-Type application/octet-stream.',
        [{ code: 'INVALID_FILE', description: 'the body must hold the file', field: '', in: 'body' }],
      );
    }
    const target = await this.targets.locate(formId, { principal, requestId }, { verb: 'upload' });
    // Files are responses data: only the form's region takes them (refused, not redirected).
    this.targets.elsewhere(target, { path: `/forms/${formId}/files/${fieldId}`, takes: 'files' });
    const field = fileField(target.form.definition as FormDefinition, fieldId);
    const stored = await this.media.storeFile(request, {
      formId,
      fieldId: field.id,
      filename: query.filename,
    });
    // Counted by the bytes stored (the declared size, which the media app stored whole).
    const reservation = request.uploadReservation;
    await reservation?.settle(stored.size);
    reservation?.keep();
    return {
      file_url: uploadUrl(this.regionBase, formId, field.id, stored.file_name),
      file_name: stored.file_name,
      size: stored.size,
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
    // The response answers that question with this very file: its address,
    // as the Responses API shows it, is the one asked for.
    const response = page.items.at(0);
    const answered =
      response !== undefined &&
      answeredFiles(this.regionBase, formId, response).some(
        (file) => file.fieldId === fieldId && file.fileName === filename,
      );
    const stored = answered
      ? await this.media.openFile(requestId, { formId, fieldId, fileName: filename })
      : undefined;
    if (!stored)
      throw new DomainError(ErrorCode.NotFound, `No file ${filename.slice(0, 120)} in that response.`);
    void reply
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Length', String(stored.size))
      .header('Content-Disposition', `attachment; filename="${filename}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(stored.body);
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
