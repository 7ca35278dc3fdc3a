import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { recordUpload, type StoredFile, type UploadedFile } from '@formline/contracts';
import { DomainError, ErrorCode, unavailableError } from '@formline/errors';
import { RequestId } from '@formline/http-edge';
import { newPublicId } from '@formline/ids';
import { inputLimits } from '@formline/input';
import { RpcClient } from '@formline/messaging';
import { isStoredFileName, type ObjectStore, safeFileName } from '@formline/object-storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_CONFIG, type MediaConfig } from '@formline/app-config';
import { FILE_STORE, storedFileKey } from './file.store';

// Path segments that name a form or a question: safe as an object key's.
const segment = /^[\w-]{1,100}$/;

// Respondents' files, behind the gateway (which decided the caller's access,
// budgets, form, region and question before reading a byte of the body, and
// checks which response answers with which file): the bytes stream from the
// gateway into the region's file store and back out, never held whole here.
@Controller('respondent-files/:form_id/:field_id')
export class RespondentFilesController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(FILE_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_CONFIG) private readonly config: MediaConfig,
  ) {}

  // The body is stored whole under a new name, exactly its Content-Length
  // (at most FILE_MAX_BYTES, refused 413 before any of it is read), or not
  // at all: a body cut off leaves nothing in the store. The record first:
  // bytes without one could never be pruned; a record whose bytes never
  // arrive is an upload no submission can name (its address was never
  // given out), pruned in time.
  @Post()
  @HttpCode(201)
  async upload(
    @RequestId() requestId: string,
    @Req() request: FastifyRequest,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Query('filename') filename: unknown,
  ): Promise<UploadedFile> {
    const size = this.declaredSize(request.headers['content-length']);
    if (typeof filename !== 'string' || filename.length === 0 || filename.length > inputLimits.name)
      throw invalid('filename', 'query', 'the file needs a name of 1 to 255 characters');
    const file = storedFile(formId, fieldId, `${newPublicId(16)}-${safeFileName(filename)}`);
    await this.rpc.request(recordUpload, { ...file, size }, requestId);
    try {
      await this.store.putStream(
        storedFileKey(this.config.REGION, file),
        request.raw,
        'application/octet-stream',
        size,
      );
    } catch {
      if (!request.raw.complete)
        throw invalid('', 'body', 'the body ended before its Content-Length was sent');
      throw unavailableError('The file store');
    }
    return { file_name: file.fileName, size };
  }

  @Get(':file_name')
  async download(
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Param('file_name') fileName: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const stored = isStoredFileName(fileName)
      ? await this.store.open(storedFileKey(this.config.REGION, storedFile(formId, fieldId, fileName)))
      : undefined;
    if (!stored) throw new DomainError(ErrorCode.NotFound, `No file ${fileName.slice(0, 120)}.`);
    void reply
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Length', String(stored.size))
      .send(stored.body);
  }

  // 411 without a Content-Length, 413 past FILE_MAX_BYTES, 400 for none at all.
  private declaredSize(header: string | undefined): number {
    if (header === undefined || !/^\d{1,15}$/.test(header))
      throw new DomainError(ErrorCode.LengthRequired, 'Send the file with its Content-Length.');
    const size = Number(header);
    if (size > this.config.FILE_MAX_BYTES) {
      throw new DomainError(
        ErrorCode.PayloadTooLarge,
        `A file may hold at most ${this.config.FILE_MAX_BYTES} bytes.`,
      );
    }
    if (size === 0) throw invalid('', 'body', 'the body must hold the file');
    return size;
  }
}

function storedFile(formId: string, fieldId: string, fileName: string): StoredFile {
  if (!segment.test(formId)) throw new DomainError(ErrorCode.NotFound, 'No such form.');
  if (!segment.test(fieldId)) throw new DomainError(ErrorCode.NotFound, 'No such question.');
  return { formId, fieldId, fileName };
}

function invalid(field: string, where: 'body' | 'query', description: string): DomainError {
  return new DomainError(ErrorCode.ValidationError, `The upload is not valid: ${description}.`, [
    { code: 'INVALID_FILE', description, field, in: where },
  ]);
}
